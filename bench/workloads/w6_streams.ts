// W6: streams mode. Start `nekton streams` with no streams, create 1,000 streams (`generate` every
// 1s -> `drop`) through POST /streams/{id} while timing GET /streams/{id}, measure the resident
// memory they hold, delete them all and check the memory comes back. Targets: >= 500 creates/s,
// <= 100 KB per idle stream, RSS after deleting within 10% of the empty process.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Measured, Metrics, Row, Workload } from '../harness.js';
import { Inspector } from '../inspector.js';
import { freePort, rssKiB, sleep, startNekton, waitForHttp } from '../processes.js';

const CONCURRENCY = 8;
const STREAM_BODY = `input:
  generate:
    interval: 1s
    mapping: 'root = "tick"'
output:
  drop: {}
`;

/** A change in MB with its sign, one decimal: `+1.2`, `-0.3`, `0.0`. */
function mb(delta: number): string {
  const text = Math.abs(delta).toFixed(1);
  return text === '0.0' ? text : `${delta < 0 ? '-' : '+'}${text}`;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** Runs `task(i)` for i in [0, count) with `CONCURRENCY` workers; resolves the seconds taken. */
async function concurrently(count: number, task: (i: number) => Promise<void>): Promise<number> {
  const started = performance.now();
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < count; i = next++) await task(i);
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return (performance.now() - started) / 1000;
}

async function expectStatus(res: Response, what: string): Promise<void> {
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${what}: ${res.status} ${text.slice(0, 200)}`);
}

/** Creates `bench_0..count-1` while one client times GET /streams/{id} on those already created. */
async function createAll(
  base: string,
  count: number,
  prefix: string,
): Promise<{ seconds: number; latencies: number[] }> {
  const created: string[] = [];
  const latencies: number[] = [];
  let churning = true;
  const reader = (async () => {
    while (churning) {
      if (created.length === 0) {
        await sleep(5);
        continue;
      }
      const id = created[Math.floor(Math.random() * created.length)]!;
      const t = performance.now();
      await expectStatus(await fetch(`${base}/streams/${id}`), `GET /streams/${id}`);
      latencies.push(performance.now() - t);
    }
  })();
  const seconds = await concurrently(count, async (i) => {
    const id = `${prefix}${i}`;
    const res = await fetch(`${base}/streams/${id}`, {
      method: 'POST',
      headers: { 'content-type': 'application/yaml' },
      body: STREAM_BODY,
    });
    await expectStatus(res, `POST /streams/${id}`);
    created.push(id);
  });
  churning = false;
  await reader;
  latencies.sort((a, b) => a - b);
  return { seconds, latencies };
}

export function w6Streams(workDir: string, streams = 1000): Workload {
  const obsFile = join(workDir, 'w6-obs.yaml');
  const title = 'W6 streams mode';

  async function once(): Promise<Metrics> {
    const port = await freePort();
    writeFileSync(obsFile, `http:\n  address: 127.0.0.1:${port}\nlogger:\n  level: WARN\n`);
    const proc = startNekton(['streams', '-o', obsFile], ['--inspect=127.0.0.1:0']);
    const base = `http://127.0.0.1:${port}`;
    let inspector: Inspector | null = null;
    try {
      await waitForHttp(`${base}/ping`, proc);
      inspector = await Inspector.attach(proc);
      const pid = proc.child.pid!;
      // Memory after a forced full GC: what the process holds, not garbage not yet collected.
      const memory = async () => {
        const heap = await inspector!.collectAndMeasure();
        const { code, physical } = await inspector!.heapBreakdown();
        return { rss: rssKiB(pid) * 1024, heap, code, physical };
      };
      await sleep(1000);
      const start = await memory();
      // A warm baseline: what the first request loads (linter, components, Bloblang) that any empty
      // process serving one create would hold too. The target row still compares with `start`.
      await createAll(base, 1, 'warm_');
      await expectStatus(await fetch(`${base}/streams/warm_0`, { method: 'DELETE' }), 'DELETE warm_0');
      await sleep(1000);
      const warm = await memory();
      const create = (prefix: string) => createAll(base, streams, prefix);
      const remove = (prefix: string) =>
        concurrently(streams, async (i) => {
          const id = `${prefix}${i}`;
          await expectStatus(await fetch(`${base}/streams/${id}`, { method: 'DELETE' }), `DELETE ${id}`);
        });
      const { seconds: createSeconds, latencies } = await create('bench_');
      // Let the streams settle into idleness (each ticks once a second) before reading memory.
      await sleep(2000);
      const full = await memory();
      const deleteSeconds = await remove('bench_');
      await sleep(1000);
      const end = await memory();
      // A second cycle with new ids: memory that grows again is held per id ever used (a leak under
      // churn), not heap reuse.
      await create('cycle2_');
      await remove('cycle2_');
      await sleep(1000);
      const end2 = await memory();
      return {
        creates: streams / createSeconds,
        deletes: streams / deleteSeconds,
        getP99: percentile(latencies, 99),
        getCount: latencies.length,
        kbPerStream: (full.rss - start.rss) / 1000 / streams,
        heapKbPerStream: (full.heap - start.heap) / 1000 / streams,
        rssStartMB: start.rss / 1e6,
        rssFullMB: full.rss / 1e6,
        rssEndMB: end.rss / 1e6,
        rssBack: end.rss / start.rss,
        rssWarmMB: warm.rss / 1e6,
        rssBackWarm: end.rss / warm.rss,
        // Where the growth start → all deleted is: compiled code (V8's code space), the rest of the
        // JS heap, heap pages resident but unused, and outside V8's heap (malloc, the binary's pages).
        growthMB: (end.rss - start.rss) / 1e6,
        growthCodeMB: (end.code - start.code) / 1e6,
        growthOtherHeapMB: (end.heap - start.heap - (end.code - start.code)) / 1e6,
        growthHeapSlackMB: (end.physical - start.physical - (end.heap - start.heap)) / 1e6,
        growthOutsideHeapMB: (end.rss - start.rss - (end.physical - start.physical)) / 1e6,
        heapStartMB: start.heap / 1e6,
        heapEndMB: end.heap / 1e6,
        heapEnd2MB: end2.heap / 1e6,
        rssEnd2MB: end2.rss / 1e6,
      };
    } finally {
      inspector?.close();
      await proc.stop();
    }
  }

  return {
    id: 'W6',
    title,
    describes: `nekton streams: create ${streams} streams (generate every 1s -> drop) with POST /streams/{id}, ${CONCURRENCY} clients, while one client times GET /streams/{id}; RSS (VmRSS, after a forced GC) of the empty process, after one create + delete (warm baseline), with all streams idle, and after deleting them all, with the growth split by kind (V8's code space, rest of the JS heap, unused heap pages, outside the JS heap); then a second create/delete cycle to tell a leak from heap reuse`,
    setup: async () => undefined,
    contenders: [{ name: 'nekton', run: once }],
    report(m: Measured): Row[] {
      const n = m.medians.get('nekton');
      if (!n) {
        const why = m.unavailable.get('nekton') ?? 'did not run';
        return [
          {
            workload: title,
            nekton: `failed: ${why}`,
            baseline: '',
            baselineFigure: '',
            ratio: '',
            target: '',
            met: false,
          },
        ];
      }
      const row = (
        what: string,
        figure: string,
        baseline: string,
        baselineFigure: string,
        target: string,
        met: boolean | null,
      ): Row => ({
        workload: `${title}: ${what}`,
        nekton: figure,
        baseline,
        baselineFigure,
        ratio: '',
        target,
        met,
      });
      return [
        row('creates', `${n.creates!.toFixed(0)} creates/s`, '', '', '≥ 500/s', n.creates! >= 500),
        row('deletes', `${n.deletes!.toFixed(0)} deletes/s`, '', '', '', null),
        row('GET /streams/{id} p99 during creates', `${n.getP99!.toFixed(1)} ms`, '', '', '', null),
        row(
          'memory per idle stream',
          `${n.kbPerStream!.toFixed(0)} KB`,
          'empty process',
          `${n.rssStartMB!.toFixed(0)} MB RSS`,
          '≤ 100 KB',
          n.kbPerStream! <= 100,
        ),
        row(
          'RSS after deleting all',
          `${n.rssEndMB!.toFixed(0)} MB (${(n.rssBack! * 100).toFixed(0)}% of start; ${n.rssFullMB!.toFixed(0)} MB with all)`,
          'empty process',
          `${n.rssStartMB!.toFixed(0)} MB RSS`,
          '≤ 110%',
          n.rssBack! <= 1.1,
        ),
        row(
          'RSS after one create + delete (warm baseline)',
          `${n.rssWarmMB!.toFixed(0)} MB; after deleting all: ${(n.rssBackWarm! * 100).toFixed(0)}% of it`,
          'empty process',
          `${n.rssStartMB!.toFixed(0)} MB RSS`,
          '',
          null,
        ),
        row(
          'RSS growth after deleting all, by kind',
          `${mb(n.growthMB!)} MB (medians of each part): V8 code space ${mb(n.growthCodeMB!)}, other JS heap ${mb(n.growthOtherHeapMB!)}, unused heap pages ${mb(n.growthHeapSlackMB!)}, outside the JS heap ${mb(n.growthOutsideHeapMB!)}`,
          '',
          '',
          '',
          null,
        ),
        row(
          'JS heap after GC: start / all deleted / second cycle deleted',
          `${n.heapStartMB!.toFixed(1)} / ${n.heapEndMB!.toFixed(1)} / ${n.heapEnd2MB!.toFixed(1)} MB (${n.heapKbPerStream!.toFixed(0)} KB per live stream)`,
          '',
          '',
          '',
          null,
        ),
      ];
    },
  };
}
