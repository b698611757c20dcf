// Time-ordered identifiers: `ulid` (48-bit milliseconds + 80 random bits) and `snowflake_id`
// (Twitter's layout: milliseconds since 2010-11-04, 10-bit node, 12-bit sequence).
import { nodeCrypto } from '../../base/lazy_builtins.js';
import { registerFunction } from '../library.js';
import { argInt, argString, fail, p } from '../methods/support.js';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** The 16 bytes of a ULID for this instant. */
export function ulidBytes(nowMs: number): Buffer {
  const bytes = Buffer.alloc(16);
  bytes.writeUIntBE(nowMs, 0, 6);
  nodeCrypto().randomFillSync(bytes, 6, 10);
  return bytes;
}

/** Crockford base32 of 128 bits: 26 characters, the first carrying the top 3 bits. */
export function crockford(bytes: Uint8Array): string {
  let n = BigInt(`0x${Buffer.from(bytes).toString('hex')}`);
  let out = '';
  for (let i = 0; i < 26; i++) {
    out = CROCKFORD[Number(n & 31n)] + out;
    n >>= 5n;
  }
  return out;
}

registerFunction({
  name: 'ulid',
  impure: true,
  params: [p.str('encoding', { default: 'crockford' }), p.str('random_source', { default: 'secure_random' })],
  impl(a) {
    const encoding = argString(a, 0);
    const source = argString(a, 1);
    if (encoding !== 'crockford' && encoding !== 'hex') throw fail(`invalid ulid encoding: ${encoding}`);
    if (source !== 'secure_random' && source !== 'fast_random')
      throw fail(`invalid randomness source: ${source}`);
    // Both sources draw from the CSPRNG: it is fast enough, and never worse than asked for.
    const bytes = ulidBytes(Date.now());
    return encoding === 'hex' ? bytes.toString('hex') : crockford(bytes);
  },
});

const SNOWFLAKE_EPOCH_MS = 1_288_834_974_657;
const MAX_NODE = 1023;
const MAX_STEP = 4095;

interface SnowflakeClock {
  lastMs: number;
  step: number;
}

/** One clock per node id across the process, so two call sites of one node never collide. */
const clocks = new Map<number, SnowflakeClock>();

/** The next id of a node: a later millisecond restarts the sequence; a full one moves to the next. */
export function nextSnowflake(node: number, nowMs: number): bigint {
  let clock = clocks.get(node);
  if (!clock) {
    clock = { lastMs: -1, step: 0 };
    clocks.set(node, clock);
  }
  if (nowMs > clock.lastMs) {
    clock.lastMs = nowMs;
    clock.step = 0;
  } else if (clock.step < MAX_STEP) {
    clock.step++;
  } else {
    // Borrow the next millisecond instead of spinning; ids stay unique and ordered.
    clock.lastMs++;
    clock.step = 0;
  }
  return (BigInt(clock.lastMs - SNOWFLAKE_EPOCH_MS) << 22n) | (BigInt(node) << 12n) | BigInt(clock.step);
}

registerFunction({
  name: 'snowflake_id',
  impure: true,
  params: [p.int('node_id', { default: 1 })],
  impl(a) {
    const node = argInt(a, 0, 'node_id');
    if (node < 0 || node > MAX_NODE) throw fail(`Node number must be between 0 and ${MAX_NODE}`);
    return nextSnowflake(node, Date.now()).toString();
  },
});
