import { readFileSync } from 'node:fs';
import * as zlib from 'node:zlib';
import { decompressor } from '/work/wt/bombs/src/components/compression.ts';
import { decompressSync } from '/work/wt/bombs/src/components/decompression/whole_sync.ts';
const bomb = readFileSync('/work/wt/bombs/test/fixtures/compression/zeros-6200000000.bz2');
let maxGap = 0; let last = performance.now();
const t = setInterval(() => { const n = performance.now(); maxGap = Math.max(maxGap, n - last); last = n; }, 5);
for (const alg of ['bzip2']) {
  const d = await decompressor(alg);
  const t0 = performance.now();
  try { await d(bomb); console.log('no error?'); } catch (e) { console.log(alg, (e as Error).message, Math.round(performance.now() - t0), 'ms', 'maxGap', Math.round(maxGap)); }
}
// gzip bomb: members
const member = zlib.gzipSync(Buffer.alloc(1 << 20));
const gz = Buffer.concat(Array.from({ length: 4300 }, () => member));
console.log('gzip bomb bytes', gz.length);
maxGap = 0; last = performance.now();
{ const d = await decompressor('gzip'); const t0 = performance.now(); try { await d(gz); } catch (e) { console.log('gzip', (e as Error).message, Math.round(performance.now() - t0), 'ms maxGap', Math.round(maxGap)); } }
const snappyjs = (await import('snappyjs')).default ?? await import('snappyjs');
const trunc = Buffer.from([0x80, 0x80, 0x80, 0x80, 0x08, 0x00, 0x61]);
try { decompressSync('snappy', trunc); console.log('snappy ok?'); } catch (e) { console.log('snappy', (e as Error).message); }
const ok = (snappyjs as any).compress(Buffer.from('hello hello hello hello'));
console.log(Buffer.from(decompressSync('snappy', ok)).toString());
const lz4 = await import('lz4js');
const lzbig = lz4.compress(Buffer.alloc(20 << 20, 7));
console.log('lz4 len', lzbig.length, (await (await decompressor('lz4'))(lzbig)).length);
try { await (await decompressor('lz4'))(lzbig.subarray(0, lzbig.length - 3)); } catch (e) { console.log('lz4 trunc', (e as Error).message); }
const lines = readFileSync('/work/wt/bombs/test/fixtures/compression/lines.txt.bz2');
console.log('bz2 lines', (await (await decompressor('bzip2'))(lines)).length, decompressSync('bzip2', lines).length);
try { await (await decompressor('bzip2'))(lines.subarray(0, lines.length - 5)); } catch (e) { console.log('bz2 trunc', (e as Error).message); }
clearInterval(t);
