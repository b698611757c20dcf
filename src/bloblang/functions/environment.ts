// Functions that read the environment or the clock: env, file, file_rel, hostname, now, timestamp_unix*.
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import { registerFunction, Timestamp } from '../library.js';
import { argString, fail, p } from '../methods/support.js';
import { formatTimestamp, normaliseInt } from '../value.js';
import { wallClockNs } from './wall_clock.js';

registerFunction({
  name: 'env',
  impure: true,
  params: [p.str('name'), p.bool('no_cache', { default: false })],
  impl(a, ctx, site) {
    const name = argString(a, 0);
    if (a[1] === true) return process.env[name] ?? null;
    // Cached per mapping and call site, as the reference reads it once per compiled mapping: a
    // mapping built later (another stream, another unit test case) sees the environment of then.
    let cache = ctx.state.get(site) as Map<string, string | null> | undefined;
    if (!cache) {
      cache = new Map();
      ctx.state.set(site, cache);
    }
    if (cache.has(name)) return cache.get(name) ?? null;
    const v = process.env[name] ?? null;
    cache.set(name, v);
    return v;
  },
});

const fileCache = new Map<string, Uint8Array>();

function readFile(path: string, noCache: boolean): Uint8Array {
  const full = resolve(path);
  if (!noCache) {
    const hit = fileCache.get(full);
    if (hit) return hit;
  }
  let data: Uint8Array;
  try {
    data = new Uint8Array(readFileSync(full));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const reason = code === 'ENOENT' ? 'no such file or directory' : (e as Error).message;
    throw fail(`open ${path}: ${reason}`);
  }
  if (!noCache) fileCache.set(full, data);
  return data;
}

for (const name of ['file', 'file_rel']) {
  registerFunction({
    name,
    impure: true,
    params: [p.str('path'), p.bool('no_cache', { default: false })],
    impl: (a) => readFile(argString(a, 0), a[1] === true),
  });
}

registerFunction({ name: 'hostname', impure: true, params: [], impl: () => hostname() });

// Monotonic within the process: the previous form (Date.now() plus the monotonic clock's sub-ms
// digits) could step back up to a millisecond between two calls.
const nowNs = wallClockNs;

/**
 * The zone `now()` is shown in: the process's local zone (TZ), like Go's time.Now(). Looked up on
 * first use: the first Intl call loads ICU's time-zone data (~10 ms), which start-up should not pay.
 */
let localZone: string | undefined;
const processZone = (): string => (localZone ??= Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC');

registerFunction({
  name: 'now',
  impure: true,
  params: [],
  impl: () => formatTimestamp(new Timestamp(nowNs(), processZone())),
});

const unixFunctions: Array<[string, bigint]> = [
  ['timestamp_unix', 1_000_000_000n],
  ['timestamp_unix_milli', 1_000_000n],
  ['timestamp_unix_micro', 1000n],
  ['timestamp_unix_nano', 1n],
];
for (const [name, div] of unixFunctions) {
  registerFunction({ name, impure: true, params: [], impl: () => normaliseInt(nowNs() / div) });
}
