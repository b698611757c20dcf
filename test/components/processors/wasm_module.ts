// A hand-assembled WebAssembly module using the reference's `benthos_wasm` ABI, for the wasm
// processor's tests (no toolchain needed). Its `process` reads the message, uppercases ASCII
// letters, writes it back and sets the metadata `touched: yes`; `trap` hits `unreachable`;
// `get_meta_copy` sets the content to the value of the metadata key `k`. It exports `memory` and a
// bump allocator `malloc` (with a `free` that does nothing), as TinyGo modules do.

const u32 = (n: number): number[] => {
  const out: number[] = [];
  do {
    let byte = n & 0x7f;
    n >>>= 7;
    if (n !== 0) byte |= 0x80;
    out.push(byte);
  } while (n !== 0);
  return out;
};
const str = (s: string) => [...u32(s.length), ...Buffer.from(s)];
const vec = (items: number[][]) => [...u32(items.length), ...items.flat()];
const section = (id: number, body: number[]) => [id, ...u32(body.length), ...body];

const I32 = 0x7f;
const I64 = 0x7e;
const func = (params: number[], results: number[]) => [
  0x60,
  ...vec(params.map((p) => [p])),
  ...vec(results.map((r) => [r])),
];

// Locals of process: 0 pl (i64), 1 ptr, 2 len, 3 i, 4 addr, 5 b (i32).
const processBody = [
  ...[2, ...[1, I64], ...[5, I32]], // local decls: 1 i64, 5 i32
  0x10,
  0,
  0x21,
  0, // call as_bytes; local.set pl
  0x20,
  0,
  0x42,
  32,
  0x88,
  0xa7,
  0x21,
  1, // ptr = wrap(pl >> 32)
  0x20,
  0,
  0xa7,
  0x21,
  2, // len = wrap(pl)
  0x02,
  0x40,
  0x03,
  0x40, // block loop
  0x20,
  3,
  0x20,
  2,
  0x4f,
  0x0d,
  1, // if i >= len br 1
  0x20,
  1,
  0x20,
  3,
  0x6a,
  0x22,
  4, // addr = ptr + i (tee)
  0x2d,
  0,
  0,
  0x21,
  5, // b = load8_u(addr)
  0x20,
  5,
  0x41,
  0xe1,
  0x00,
  0x6b,
  0x41,
  25,
  0x4d, // (b - 97) <=u 25
  0x04,
  0x40,
  0x20,
  4,
  0x20,
  5,
  0x41,
  32,
  0x6b,
  0x3a,
  0,
  0,
  0x0b, // if: store8(addr, b - 32)
  0x20,
  3,
  0x41,
  1,
  0x6a,
  0x21,
  3,
  0x0c,
  0, // i++; br 0
  0x0b,
  0x0b, // end loop, end block
  0x20,
  1,
  0x20,
  2,
  0x10,
  1, // set_bytes(ptr, len)
  0x41,
  0,
  0x41,
  7,
  0x41,
  7,
  0x41,
  3,
  0x10,
  2, // set_meta("touched", "yes")
  0x0b,
];

const mallocBody = [0, 0x23, 0, 0x23, 0, 0x20, 0, 0x6a, 0x24, 0, 0x0b];
const freeBody = [0, 0x0b];
const trapBody = [0, 0x00, 0x0b];
// get_meta_copy: pl = get_meta("k"); set_bytes(pl >> 32, pl)
const getMetaBody = [
  ...[1, ...[1, I64]],
  0x41,
  10,
  0x41,
  1,
  0x10,
  3,
  0x21,
  0,
  0x20,
  0,
  0x42,
  32,
  0x88,
  0xa7,
  0x20,
  0,
  0xa7,
  0x10,
  1,
  0x0b,
];
const code = (body: number[]) => [...u32(body.length), ...body];

export function uppercaseModule(): Uint8Array {
  const types = section(
    1,
    vec([
      func([], [I64]), // 0 as_bytes
      func([I32, I32], []), // 1 set_bytes
      func([I32, I32, I32, I32], []), // 2 set_meta
      func([I32, I32], [I64]), // 3 get_meta
      func([I32], [I32]), // 4 malloc
      func([], []), // 5 process, trap, get_meta_copy
      func([I32], []), // 6 free
    ]),
  );
  const imports = section(
    2,
    vec([
      [...str('benthos_wasm'), ...str('v0_msg_as_bytes'), 0, 0],
      [...str('benthos_wasm'), ...str('v0_msg_set_bytes'), 0, 1],
      [...str('benthos_wasm'), ...str('v0_msg_set_meta'), 0, 2],
      [...str('benthos_wasm'), ...str('v0_msg_get_meta'), 0, 3],
    ]),
  );
  // Functions 4 malloc, 5 process, 6 trap, 7 get_meta_copy, 8 free.
  const functions = section(3, vec([[4], [5], [5], [5], [6]]));
  const memory = section(5, vec([[0, 1]]));
  const globals = section(6, vec([[I32, 1, 0x41, ...[0x80, 0x08], 0x0b]])); // mutable i32 = 1024
  const exports = section(
    7,
    vec([
      [...str('memory'), 2, 0],
      [...str('malloc'), 0, 4],
      [...str('process'), 0, 5],
      [...str('trap'), 0, 6],
      [...str('get_meta_copy'), 0, 7],
      [...str('free'), 0, 8],
    ]),
  );
  const codes = section(
    10,
    vec([code(mallocBody), code(processBody), code(trapBody), code(getMetaBody), code(freeBody)]),
  );
  // Data at 0: "touched" (7) "yes" (3) "k" (1).
  const data = section(11, vec([[0, 0x41, 0, 0x0b, ...u32(11), ...Buffer.from('touchedyesk')]]));
  return Uint8Array.from([
    0x00,
    0x61,
    0x73,
    0x6d,
    0x01,
    0x00,
    0x00,
    0x00,
    ...types,
    ...imports,
    ...functions,
    ...memory,
    ...globals,
    ...exports,
    ...codes,
    ...data,
  ]);
}
