import { readFileSync } from 'node:fs';
import { bzip2Decoder } from '/work/wt/bombs/src/components/decompression/bzip2.ts';
import { ByteQueue } from '/work/wt/bombs/src/components/decompression/byte_queue.ts';
import { OutputBudget } from '/work/wt/bombs/src/components/decompression/limit.ts';
const bomb = readFileSync('/work/wt/bombs/test/fixtures/compression/zeros-6200000000.bz2');
const d = bzip2Decoder(ByteQueue.of(bomb), new OutputBudget(300e6));
let t = performance.now(); const steps: number[] = [];
try { for (const c of d) { const n = performance.now(); steps.push(Math.round(n - t)); t = n; } } catch (e) { console.log((e as Error).message); }
console.log(steps.length, Math.max(...steps), steps.slice(0, 60).join(' '));
