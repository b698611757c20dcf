import { Worker } from 'node:worker_threads';
const w = new Worker(`
const { parentPort, workerData } = require('node:worker_threads');
import(workerData.module).then((m) => m[workerData.fn](...workerData.args)).then((r) => parentPort.postMessage({ ok: r }), (e) => parentPort.postMessage({ err: String(e) }));
`, { eval: true, workerData: { module: new URL('../src/components/decompression/limit.ts', import.meta.url).href, fn: 'decompressedLimit', args: [{}] } });
w.on('message', (m) => { console.log(m); w.terminate(); });
w.on('error', (e) => console.log('err', e));
