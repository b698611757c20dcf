// A/B helper for the W4 Redis row: fills a stream, times one nekton run and one loop run,
// alternating, and reports wall time, the process's CPU and Redis's CPU for each.
// argv: rounds [messages] [contenders, comma-separated: loop, nekton (bin/nekton) or name=path/to/bin/nekton]
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createClient } from '@redis/client';
import { makeDocument, mappingYaml } from './documents.js';
import { NEKTON_NODE_FLAGS, sleep, startBackground } from './processes.js';

const URL = 'redis://127.0.0.1:6379';
const pairs = Number(process.argv[2] ?? 5);
const messages = Number(process.argv[3] ?? 200_000);
const contenders = (process.argv[4] ?? 'nekton,loop').split(',').map((c) => {
  const [name, bin] = c.split('=');
  return { name: name!, bin: bin ?? (name === 'loop' ? null : 'bin/nekton') };
});
const redis = createClient({ url: URL });
await redis.connect();

async function fill(stream: string) {
  for (let i = 0; i < messages; i += 5000) {
    const multi = redis.multi();
    for (let j = i; j < Math.min(i + 5000, messages); j++) multi.xAdd(stream, '*', { body: makeDocument(j) });
    await multi.exec();
  }
}
const clk = 100;
function procCpu(pid: number): number {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(f[11]) + Number(f[12])) / clk;
}
async function redisCpu(): Promise<number> {
  const info = await redis.info('cpu');
  const u = Number(/used_cpu_user:([\d.]+)/.exec(info)![1]);
  const s = Number(/used_cpu_sys:([\d.]+)/.exec(info)![1]);
  return u + s;
}

async function run(bin: string | null) {
  const id = randomBytes(4).toString('hex');
  const source = `ab_src_${id}`;
  const target = `ab_dst_${id}`;
  const group = `ab_${id}`;
  await fill(source);
  const r0 = await redisCpu();
  const started = performance.now();
  let proc: ReturnType<typeof startBackground>;
  if (bin) {
    const cfg = `/tmp/w4r/w4-${id}.yaml`;
    writeFileSync(
      cfg,
      `http:\n  enabled: false\nlogger:\n  level: WARN\ninput:\n  redis_streams:\n    url: ${URL}\n    streams: [ ${source} ]\n    consumer_group: ${group}\n    limit: 100\npipeline:\n  processors:\n${mappingYaml(4)}output:\n  redis_streams:\n    url: ${URL}\n    stream: ${target}\n    batching:\n      count: 100\n      period: 20ms\n`,
    );
    proc = startBackground(process.execPath, [...NEKTON_NODE_FLAGS, bin, '-c', cfg]);
  } else {
    proc = startBackground(process.execPath, [
      'bench/baselines/redis_streams_loop.mjs',
      URL,
      source,
      target,
      group,
      String(messages),
      '100',
    ]);
  }
  let cpu = 0;
  while ((await redis.xLen(target)) < messages) {
    if (proc.child.exitCode !== null && bin) throw new Error(proc.stderr());
    try {
      cpu = procCpu(proc.child.pid!);
    } catch {}
    await sleep(20);
  }
  const seconds = (performance.now() - started) / 1000;
  try {
    cpu = procCpu(proc.child.pid!);
  } catch {}
  const r1 = await redisCpu();
  await proc.stop();
  await redis.del([source, target]);
  return { rate: messages / seconds, seconds, cpu, redis: r1 - r0 };
}

const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
type Result = { rate: number; seconds: number; cpu: number; redis: number };
const res = new Map<string, Result[]>(contenders.map((c) => [c.name, []]));
for (let i = 0; i < pairs; i++) {
  for (const c of contenders) {
    const r = await run(c.bin);
    res.get(c.name)!.push(r);
    console.log(
      c.name,
      Math.round(r.rate),
      'msgs/s',
      r.seconds.toFixed(2),
      's cpu',
      r.cpu.toFixed(2),
      'redis',
      r.redis.toFixed(2),
    );
  }
}
for (const [name, rs] of res) {
  const rates = rs.map((r) => r.rate);
  console.log(
    name,
    'median',
    Math.round(med(rates)),
    'range',
    Math.round(Math.min(...rates)),
    '-',
    Math.round(Math.max(...rates)),
    'cpu',
    med(rs.map((r) => r.cpu)).toFixed(2),
    'redis',
    med(rs.map((r) => r.redis)).toFixed(2),
  );
}
const loop = res.get('loop');
if (loop)
  for (const [name, rs] of res) {
    if (name === 'loop') continue;
    const ratios = rs.map((r, i) => r.rate / loop[i]!.rate);
    console.log(
      name,
      '/ loop ratio median',
      med(ratios).toFixed(2),
      'range',
      Math.min(...ratios).toFixed(2),
      '-',
      Math.max(...ratios).toFixed(2),
    );
  }
await redis.quit();
