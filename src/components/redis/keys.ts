// Where a raw command's first key is (a cluster client routes by it) and the hash slot of a key,
// so lint can refuse multi-key reads that a cluster cannot serve.
import type { RedisArgument } from '@redis/client';

/** Commands with no key: a cluster client sends them to any node (or to all, for KEYS and SCAN). */
const KEYLESS = new Set([
  'PING',
  'INFO',
  'SCAN',
  'KEYS',
  'PUBLISH',
  'SCRIPT',
  'CLIENT',
  'CLUSTER',
  'COMMAND',
  'CONFIG',
  'DBSIZE',
  'ECHO',
  'FLUSHALL',
  'FLUSHDB',
  'RANDOMKEY',
  'TIME',
  'ROLE',
  'SUBSCRIBE',
  'PSUBSCRIBE',
]);

function word(arg: RedisArgument | undefined): string {
  return typeof arg === 'string'
    ? arg.toUpperCase()
    : arg instanceof Buffer
      ? arg.toString().toUpperCase()
      : '';
}

/**
 * The first key of a command, as the reference's client finds it: after STREAMS for XREAD(GROUP),
 * after numkeys for scripts, the third word for XGROUP/XINFO/OBJECT/MEMORY, else the second.
 */
export function firstKeyOf(args: readonly RedisArgument[]): RedisArgument | undefined {
  const name = word(args[0]);
  if (KEYLESS.has(name)) return undefined;
  switch (name) {
    case 'EVAL':
    case 'EVALSHA':
    case 'EVAL_RO':
    case 'EVALSHA_RO':
    case 'FCALL':
    case 'FCALL_RO':
      return Number(String(args[2])) > 0 ? args[3] : undefined;
    case 'XREAD':
    case 'XREADGROUP': {
      const at = args.findIndex((a, i) => i > 0 && word(a) === 'STREAMS');
      return at > 0 ? args[at + 1] : undefined;
    }
    case 'XGROUP':
    case 'XINFO':
    case 'OBJECT':
    case 'MEMORY':
      return args[2];
    default:
      return args[1];
  }
}

// CRC16/XMODEM (polynomial 0x1021), the checksum Redis Cluster assigns slots with.
const CRC_TABLE = (() => {
  const table = new Uint16Array(256);
  for (let i = 0; i < 256; i++) {
    let crc = i << 8;
    for (let b = 0; b < 8; b++) crc = crc & 0x8000 ? (crc << 1) ^ 0x1021 : crc << 1;
    table[i] = crc & 0xffff;
  }
  return table;
})();

/** The cluster hash slot (0..16383) of a key: of its `{hash tag}` when it has a non-empty one. */
export function keySlot(key: string): number {
  let bytes = Buffer.from(key, 'utf8');
  const open = bytes.indexOf(0x7b); // {
  if (open >= 0) {
    const close = bytes.indexOf(0x7d, open + 1); // }
    if (close > open + 1) bytes = bytes.subarray(open + 1, close);
  }
  let crc = 0;
  for (const byte of bytes) crc = ((crc << 8) & 0xffff) ^ (CRC_TABLE[((crc >> 8) ^ byte) & 0xff] as number);
  return crc % 16384;
}

/**
 * For a cluster: keys one command names together must share a slot (the server answers
 * CROSSSLOT otherwise). The lint when they do not, on `streams`.
 */
export function lintOneSlot(keys: readonly string[]): { field: string; message: string }[] {
  const slots = new Map<number, string>();
  for (const key of keys) if (!slots.has(keySlot(key))) slots.set(keySlot(key), key);
  if (slots.size <= 1) return [];
  const [a, b] = [...slots.values()];
  return [
    {
      field: 'streams',
      message: `with kind cluster every stream must hash to one slot, as XREADGROUP reads them in one command ('${a}' and '${b}' do not): give them one hash tag, e.g. '{orders}.eu' and '{orders}.us'`,
    },
  ];
}
