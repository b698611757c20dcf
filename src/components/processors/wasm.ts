// `wasm`: runs a function exported by a WebAssembly module for each message, through the
// reference's module ABI: a host module `benthos_wasm` with v0_msg_as_bytes, v0_msg_set_bytes,
// v0_msg_get_meta and v0_msg_set_meta, memory handed in through the module's `malloc`/`free`
// (TinyGo) or `allocate`/`deallocate` (Rust), and WASI preview 1 (node:wasi).
import { readFile } from 'node:fs/promises';
import { defineComponent, field } from '../../config/spec.js';
import type { Processor } from '../../engine/component.js';
import { errorMessage } from '../../engine/errors.js';
import { flagged, processorErrorLog } from '../../engine/processor_helpers.js';
import type { Batch, Message } from '../../message/message.js';

type Fn = (...args: number[]) => number | bigint | undefined;
type Exports = Record<string, unknown>;
type HostFunctions = Record<string, (...args: number[]) => unknown>;

/** The part of the WebAssembly global used here (the project's `lib` has no DOM types). */
interface WebAssemblyApi {
  compile(binary: Uint8Array): Promise<object>;
  instantiate(module: object, imports: Record<string, object>): Promise<{ exports: Exports }>;
  Memory: abstract new (...args: never[]) => { buffer: ArrayBuffer };
}
const wasmApi = (globalThis as unknown as { WebAssembly: WebAssemblyApi }).WebAssembly;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** One instantiated module and the message its host functions act on. */
class ModuleRunner {
  target: Message | null = null;
  procErr: Error | null = null;
  private after: Array<() => void> = [];
  private exports!: Exports;

  constructor(private readonly log: (err: Error) => void) {}

  imports(): HostFunctions {
    return {
      v0_msg_set_bytes: (ptr: number, size: number) => {
        if (!this.target) return this.fail(new Error('attempted to set bytes of deleted message'));
        const bytes = this.readOutbound(ptr, size);
        if (bytes) this.target.setBytes(bytes);
      },
      v0_msg_as_bytes: (): bigint => {
        if (!this.target) {
          this.fail(new Error('attempted to read bytes of deleted message'));
          return 0n;
        }
        return this.allocateInbound(this.target.bytes());
      },
      v0_msg_set_meta: (keyPtr: number, keySize: number, ptr: number, size: number) => {
        if (!this.target) return this.fail(new Error('attempted to set metadata of deleted message'));
        const key = this.readOutbound(keyPtr, keySize);
        const value = this.readOutbound(ptr, size);
        if (key && value) this.target.setMeta(decoder.decode(key), decoder.decode(value));
      },
      v0_msg_get_meta: (keyPtr: number, keySize: number): bigint => {
        if (!this.target) {
          this.fail(new Error('attempted to read meta of deleted message'));
          return 0n;
        }
        const key = this.readOutbound(keyPtr, keySize);
        if (!key) return 0n;
        const value = this.target.getMeta(decoder.decode(key));
        const text = value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);
        return this.allocateInbound(encoder.encode(text));
      },
    };
  }

  attach(exports: Exports): void {
    this.exports = exports;
  }

  private fn(name: string): Fn | undefined {
    const f = this.exports[name];
    return typeof f === 'function' ? (f as Fn) : undefined;
  }

  private memory(): Uint8Array {
    const memory = this.exports.memory;
    if (!(memory instanceof wasmApi.Memory)) throw new Error('the module exports no memory');
    return new Uint8Array(memory.buffer);
  }

  private fail(err: Error): void {
    this.procErr = err;
    this.log(err);
  }

  /** Copies bytes into the module's memory; returns (ptr << 32) | len as the ABI packs them. */
  private allocateInbound(data: Uint8Array): bigint {
    try {
      const goMalloc = this.fn('malloc');
      const rustAlloc = this.fn('allocate');
      let ptr = 0;
      if (goMalloc) ptr = Number(goMalloc(data.length));
      if (rustAlloc) ptr = Number(rustAlloc(data.length));
      const goFree = this.fn('free');
      if (goFree) this.after.push(() => goFree(ptr));
      const memory = this.memory();
      if (ptr < 0 || ptr + data.length > memory.length) throw new Error('writing in-bound memory');
      memory.set(data, ptr);
      return (BigInt(ptr >>> 0) << 32n) | BigInt(data.length);
    } catch (err) {
      this.fail(new Error(`allocating in-bound memory: ${errorMessage(err)}`));
      return 0n;
    }
  }

  private readOutbound(ptr: number, size: number): Uint8Array | null {
    const memory = this.memory();
    const start = ptr >>> 0;
    const length = size >>> 0;
    if (start + length > memory.length) {
      this.fail(new Error('reading out-bound memory: prevented read'));
      return null;
    }
    const copy = memory.slice(start, start + length);
    this.fn('deallocate')?.(start, length);
    return copy;
  }

  /** Runs the module's function once per message of the batch, each on a copy of the message. */
  run(entry: Fn, batch: Batch): Batch {
    const out: Message[] = [];
    for (const msg of batch) {
      this.procErr = null;
      this.target = msg.copy();
      try {
        entry();
      } finally {
        for (const free of this.after.splice(0)) {
          try {
            free();
          } catch (err) {
            this.fail(new Error(`freeing in-bound memory: ${errorMessage(err)}`));
          }
        }
      }
      out.push(this.procErr ? flagged(msg, this.procErr) : this.target);
      this.target = null;
    }
    return out;
  }
}

export const spec = defineComponent({
  name: 'wasm',
  kind: 'processor',
  status: 'stable',
  categories: ['Utility'],
  summary: 'Executes a function exported by a WASM module for each message.',
  description: `The module is run with Node's WebAssembly and WASI (preview 1), calling a specific function for each message being processed. From within the module it is possible to query and mutate the message being processed via the functions of the host module \`benthos_wasm\`, the reference's ABI, so modules written for the reference (with its TinyGo or Rust libraries) run unchanged:

- \`v0_msg_as_bytes() -> i64\`: the message content, copied into memory the module allocates, as \`(pointer << 32) | length\`.
- \`v0_msg_set_bytes(ptr, len)\`: replaces the content.
- \`v0_msg_get_meta(key_ptr, key_len) -> i64\` and \`v0_msg_set_meta(key_ptr, key_len, ptr, len)\`: read and write a metadata value.

The module must export \`memory\` and an allocator: \`malloc\`/\`free\` (TinyGo) or \`allocate\`/\`deallocate\` (Rust). A WASI command's \`_start\` runs once when the module is instantiated, as the reference's runtime does. A host call that fails marks its message with an error; a trap inside the module fails the whole batch, which carries on unchanged with every message flagged.

The module's state persists between messages; one instance serves all pipeline threads, which take turns (a module call is synchronous). Node 20 prints an experimental warning for WASI the first time this processor is built.`,
  fields: [
    field.string('module_path', 'The path of the target WASM module to execute.'),
    field.string(
      'function',
      'The name of the function exported by the target WASM module to run for each message.',
      {
        default: 'process',
      },
    ),
  ],
  examples: [
    {
      title: "Uppercase every message with a module (the one nekton's tests assemble)",
      config: `input:
  generate:
    count: 1
    mapping: 'root = "hello"'
pipeline:
  processors:
    - wasm:
        module_path: ./test/fixtures/wasm/uppercase.wasm
output:
  stdout: {}
`,
    },
  ],
  build: async (config, ctx): Promise<Processor> => {
    const binary = await readFile(config.module_path);
    const logError = processorErrorLog(ctx.logger);
    const runner = new ModuleRunner(logError);
    // Loaded here, not at start: Node 20 warns that WASI is experimental when it loads.
    const wasi = withoutWasiWarning(() => {
      const { WASI } = process.getBuiltinModule('node:wasi') as typeof import('node:wasi');
      return new WASI({ version: 'preview1', args: [], env: {}, returnOnExit: true });
    });
    const module = await wasmApi.compile(binary);
    const instance = await wasmApi.instantiate(module, {
      ...(wasi.getImportObject() as Record<string, object>),
      benthos_wasm: runner.imports(),
    });
    runner.attach(instance.exports);
    if (typeof instance.exports._start === 'function') wasi.start(instance);
    else if (typeof instance.exports._initialize === 'function') wasi.initialize(instance);
    const entry = instance.exports[config.function];
    if (typeof entry !== 'function')
      throw new Error(`the module exports no function named ${JSON.stringify(config.function)}`);
    return {
      process: (batch) => {
        try {
          return [runner.run(entry as Fn, batch)];
        } catch (err) {
          // A trap fails the batch, as the reference's ProcessBatch error does.
          logError(err as Error);
          return [batch.map((m) => flagged(m, err))];
        }
      },
      close: async () => {},
    };
  },
});

/**
 * Node 20 prints "ExperimentalWarning: WASI is an experimental feature" on stderr when node:wasi
 * loads: nekton chose WASI knowingly, so that line is not the user's to read. Only that warning is
 * held back, only while the module loads and the instance is made.
 */
function withoutWasiWarning<T>(make: () => T): T {
  const emit = process.emitWarning;
  process.emitWarning = function (this: unknown, warning: string | Error, ...rest: unknown[]) {
    const text = typeof warning === 'string' ? warning : warning.message;
    if (text.startsWith('WASI is an experimental feature')) return;
    return (emit as (...args: unknown[]) => void).call(process, warning, ...rest);
  } as typeof process.emitWarning;
  try {
    return make();
  } finally {
    process.emitWarning = emit;
  }
}
