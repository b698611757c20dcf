// `npm run soak`: the long variants of the guarantee tests (the same files `npm test` runs, with
// larger counts), then one million messages through a real nekton process into an output that
// takes 50 ms per write, sampling the process's resident memory (bounded: 200 MB).
//
//   node scripts/soak.mjs            everything
//   node scripts/soak.mjs tests      only the test files with soak counts
//   node scripts/soak.mjs rss        only the 1M-message resident-memory run
// Env: SOAK_SEED (replays the fuzz/fault runs), SOAK_MESSAGES (default 1000000), SOAK_RSS_LIMIT_MB (200).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const which = process.argv[2] ?? 'all';
const seed = process.env.SOAK_SEED ?? String(Date.now() % 1_000_000);

function runTests() {
  const env = {
    ...process.env,
    SOAK_REPORT: '1',
    FUZZ_SEED: seed,
    FAULT_SEED: seed,
    FAULT_MESSAGES: '20000',
    BACKPRESSURE_MESSAGES: '200000',
    BACKPRESSURE_BATCH: '200',
    FUZZ_REQUESTS: '20000',
    FUZZ_CONFIGS: '15000',
    FUZZ_MAPPINGS: '40000',
    CHURN_OPS: '10000',
  };
  console.log(`soak: test files with raised counts, seed ${seed} (replay with SOAK_SEED=${seed})`);
  const files = [
    'test/faults/engine.test.ts',
    'test/faults/errors.test.ts',
    'test/faults/sigterm.test.ts',
    'test/fuzz/http.test.ts',
    'test/fuzz/config.test.ts',
    'test/fuzz/bloblang.test.ts',
    'test/streams/churn.test.ts',
  ];
  const result = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      '--test',
      '--test-concurrency=1',
      '--test-reporter=spec',
      '--test-timeout=1800000',
      ...files,
    ],
    { cwd: root, env, stdio: 'inherit' },
  );
  return result.status === 0;
}

function rssMb(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
    return kb / 1024;
  } catch {
    return Number.NaN;
  }
}

async function runRss() {
  const messages = Number(process.env.SOAK_MESSAGES ?? 1_000_000);
  const limitMb = Number(process.env.SOAK_RSS_LIMIT_MB ?? 200);
  let received = 0;
  // The slow output's far end: 50 ms per request, counts the parts of each multipart batch.
  const sink = createServer((req, res) => {
    const boundary = /boundary=([^;]+)/.exec(req.headers['content-type'] ?? '')?.[1];
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('latin1');
      const parts = boundary ? body.split(`--${boundary}\r\n`).length - 1 : 1;
      setTimeout(() => {
        received += parts;
        res.end('ok');
      }, 50);
    });
  });
  await new Promise((resolve) => sink.listen(0, '127.0.0.1', resolve));
  const dir = mkdtempSync(join(tmpdir(), 'nekton-soak-'));
  const config = join(dir, 'soak.yaml');
  writeFileSync(
    config,
    `http:
  enabled: false
logger:
  level: WARN
input:
  generate:
    count: ${messages}
    interval: ""
    mapping: 'root = {"id": counter(), "pad": "${'x'.repeat(200)}"}'
output:
  http_client:
    url: http://127.0.0.1:${sink.address().port}/sink
    verb: POST
    batch_as_multipart: true
    max_in_flight: 4
    batching:
      count: 500
`,
  );
  const built = existsSync(join(root, 'dist', 'cli', 'main.js'));
  const args = built
    ? [join(root, 'bin', 'nekton'), 'run', config]
    : ['--import', 'tsx', join(root, 'src', 'cli', 'main.ts'), 'run', config];
  console.log(`soak: ${messages} messages into a 50 ms output (${built ? 'dist build' : 'tsx, add ~50 MB'})`);
  const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
  let peak = 0;
  const started = Date.now();
  const sampler = setInterval(() => {
    const mb = rssMb(child.pid);
    if (!Number.isNaN(mb)) peak = Math.max(peak, mb);
    process.stdout.write(
      `\r  received ${received}/${messages}, rss ${mb.toFixed(0)} MB, peak ${peak.toFixed(0)} MB   `,
    );
  }, 500);
  const code = await new Promise((resolve) => child.on('exit', resolve));
  clearInterval(sampler);
  sink.close();
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(
    `\nsoak: exit ${code}, ${received}/${messages} delivered in ${seconds}s, peak RSS ${peak.toFixed(0)} MB`,
  );
  const ok = code === 0 && received >= messages && peak < limitMb;
  if (!ok) console.error(`soak FAILED: need exit 0, all delivered, peak RSS < ${limitMb} MB`);
  return ok;
}

let ok = true;
if (which === 'all' || which === 'tests') ok = runTests() && ok;
if (which === 'all' || which === 'rss') ok = (await runRss()) && ok;
process.exit(ok ? 0 : 1);
