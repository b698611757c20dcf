// General functions: range, counter, count, random_int, identifiers (uuid, nanoid, ksuid), pi, bytes.
import { nodeCrypto } from '../../base/lazy_builtins.js';
import { type Args, type CallContext, NOTHING, registerFunction, type Value } from '../library.js';
import { checkSize, MAX_GENERATED_LENGTH, MAX_RANGE_LENGTH } from '../limits.js';
import { formatUuid } from '../methods/hashing.js';
import { argInt, argOptInt, argOptString, fail, p } from '../methods/support.js';
import { toTimestamp } from '../methods/time.js';
import { normaliseInt } from '../value.js';

registerFunction({
  name: 'range',
  params: [p.int('start'), p.int('stop'), p.int('step', { default: 1 })],
  impl(a) {
    const start = argInt(a, 0, 'start');
    const stop = argInt(a, 1, 'stop');
    const step = argInt(a, 2, 'step');
    if (step === 0) throw fail('step must be greater than or less than 0');
    if (step > 0 && start >= stop)
      throw fail(`with positive step arg start (${start}) must be < stop (${stop})`);
    if (step < 0 && stop >= start)
      throw fail(`with negative step arg stop (${stop}) must be <= start (${start})`);
    // The reference sizes the result as (stop - start) / step, truncated.
    const size = Math.trunc((stop - start) / step);
    checkSize('range', size, MAX_RANGE_LENGTH, 'elements');
    return Array.from({ length: size }, (_, i) => start + step * i);
  },
});

registerFunction({ name: 'pi', params: [], impl: () => Math.PI });

registerFunction({
  name: 'bytes',
  params: [p.int('length')],
  impl(a) {
    const n = argInt(a, 0, 'length');
    if (n < 0) throw fail('length must be a positive integer');
    checkSize('bytes', n, MAX_GENERATED_LENGTH, 'bytes');
    return new Uint8Array(n);
  },
});

// counter / count ------------------------------------------------------------------

/** The context a function's query arguments see: the mapping's input document when known. */
function callSiteThis(ctx: CallContext): Value {
  const withThis = ctx as CallContext & { thisValue?: () => Value };
  try {
    return typeof withThis.thisValue === 'function' ? withThis.thisValue() : null;
  } catch {
    return null;
  }
}

function evalQueryArg(v: Args[number], context: Value): unknown {
  return typeof v === 'function' ? v(context) : v;
}

function counterBound(v: unknown, name: string): bigint {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return BigInt(Math.trunc(v));
  throw fail(`counter ${name}: expected number value`);
}

registerFunction({
  name: 'counter',
  impure: true,
  params: [
    p.query('min', { default: 1 }),
    p.query('max', { default: 9223372036854775807n }),
    p.query('set', { optional: true }),
  ],
  impl(a, ctx, site) {
    const self = callSiteThis(ctx);
    // Each counter() written in the mapping counts on its own.
    const state = ctx.state.get(site) as { value: bigint | null } | undefined;
    const s = state ?? { value: null };
    if (!state) ctx.state.set(site, s);
    if (a[2] !== undefined) {
      const set = evalQueryArg(a[2], self);
      if (set === null) return normaliseInt(s.value ?? counterBound(evalQueryArg(a[0], self), 'min'));
      if (set !== NOTHING && set !== undefined) {
        s.value = counterBound(set, 'set');
        return normaliseInt(s.value);
      }
    }
    const min = counterBound(evalQueryArg(a[0], self), 'min');
    const max = counterBound(evalQueryArg(a[1], self), 'max');
    s.value = s.value === null ? min : s.value + 1n;
    if (s.value > max || s.value < min) s.value = min;
    return normaliseInt(s.value);
  },
});

/** Process-wide named counters of the deprecated count(). */
const namedCounts = new Map<string, number>();

registerFunction({
  name: 'count',
  impure: true,
  params: [p.str('name')],
  impl(a) {
    const name = String(a[0]);
    const n = (namedCounts.get(name) ?? 0) + 1;
    namedCounts.set(name, n);
    return n;
  },
});

// random_int -------------------------------------------------------------------------

const RANDOM = Symbol('random_int');

/** splitmix64: a small seeded generator (the reference's Go generator is not reproduced). */
function splitmix(state: { s: bigint }): bigint {
  state.s = BigInt.asUintN(64, state.s + 0x9e3779b97f4a7c15n);
  let z = state.s;
  z = BigInt.asUintN(64, (z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n);
  z = BigInt.asUintN(64, (z ^ (z >> 27n)) * 0x94d049bb133111ebn);
  return z ^ (z >> 31n);
}

registerFunction({
  name: 'random_int',
  impure: true,
  params: [
    p.query('seed', { default: 0 }),
    p.int('min', { default: 0 }),
    p.int('max', { default: 9223372036854775806n }),
  ],
  impl(a, ctx) {
    const min = BigInt(a[1] as number | bigint);
    const max = BigInt(a[2] as number | bigint);
    if (min > max) throw fail(`min (${min}) must be less than or equal to max (${max})`);
    let gen = ctx.state.get(RANDOM) as { s: bigint } | undefined;
    if (!gen) {
      const seed = evalQueryArg(a[0], callSiteThis(ctx));
      if (typeof seed !== 'number' && typeof seed !== 'bigint') throw fail('seed: expected number value');
      const s = typeof seed === 'bigint' ? seed : BigInt(Math.trunc(seed));
      gen = {
        s: s === 0n ? BigInt(`0x${nodeCrypto().randomBytes(8).toString('hex')}`) : BigInt.asUintN(64, s),
      };
      ctx.state.set(RANDOM, gen);
    }
    const span = max - min + 1n;
    return normaliseInt(min + (splitmix(gen) % span));
  },
});

// identifiers --------------------------------------------------------------------------

registerFunction({ name: 'uuid_v4', impure: true, params: [], impl: () => nodeCrypto().randomUUID() });

registerFunction({
  name: 'uuid_v7',
  impure: true,
  params: [p.ts('time', { optional: true })],
  impl(a) {
    const ms =
      a[0] === undefined || a[0] === null
        ? BigInt(Date.now())
        : toTimestamp(a[0] as Value).epochNs / 1_000_000n;
    const b = new Uint8Array(nodeCrypto().randomBytes(16));
    for (let i = 0; i < 6; i++) b[i] = Number((ms >> BigInt(8 * (5 - i))) & 0xffn);
    b[6] = (b[6] & 0x0f) | 0x70;
    b[8] = (b[8] & 0x3f) | 0x80;
    return formatUuid(b);
  },
});

const NANOID_ALPHABET = 'useandom-26T198340PX75pxJACKVERYMINDBUSHWOLF_GQZbfghjklqvwyzrict';

registerFunction({
  name: 'nanoid',
  impure: true,
  params: [p.int('length', { optional: true }), p.str('alphabet', { optional: true })],
  impl(a) {
    const length = argOptInt(a, 0, 'length') ?? 21;
    const alphabet = Array.from(argOptString(a, 1) ?? NANOID_ALPHABET);
    if (length <= 0) throw fail('length must be greater than zero');
    checkSize('nanoid', length, MAX_GENERATED_LENGTH);
    if (alphabet.length === 0 || alphabet.length > 255)
      throw fail('alphabet must not be empty or exceed 255 characters');
    // Rejection sampling keeps every symbol equally likely.
    const mask = (2 << (31 - Math.clz32((alphabet.length - 1) | 1))) - 1;
    let out = '';
    while (out.length < length) {
      for (const byte of nodeCrypto().randomBytes(length * 2)) {
        const idx = byte & mask;
        if (idx < alphabet.length) out += alphabet[idx];
        if (Array.from(out).length >= length) break;
      }
    }
    return Array.from(out).slice(0, length).join('');
  },
});

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

registerFunction({
  name: 'ksuid',
  impure: true,
  params: [],
  impl() {
    const ts = Math.floor(Date.now() / 1000) - 1_400_000_000;
    const bytes = Buffer.concat([
      Buffer.from([ts >>> 24, (ts >>> 16) & 0xff, (ts >>> 8) & 0xff, ts & 0xff]),
      nodeCrypto().randomBytes(16),
    ]);
    let n = BigInt(`0x${bytes.toString('hex')}`);
    let out = '';
    while (n > 0n) {
      out = BASE62[Number(n % 62n)] + out;
      n /= 62n;
    }
    return out.padStart(27, '0');
  },
});
