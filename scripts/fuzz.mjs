// Socket-level fuzzing of every listener nekton owns, in normal and streams mode: resets mid-request,
// upgrade+reset, garbage bytes, pipelining, slow-loris, huge headers, huge and declared-huge bodies,
// bad chunked encoding, half-closes and cross-site requests, from many clients at once. Checks: the
// processes stay alive and keep answering /ping, nothing answers 500, the API refuses cross-site
// requests, and RSS and open fds come back near their start. Prints a summary; exits 1 on failure.
//
//   npm run fuzz                 10 minutes (run `npm run build` first: it runs bin/nekton)
//   npm run fuzz -- --seconds 20
//   FUZZ_SEED=<n> to replay a sequence of attacks.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const args = process.argv.slice(2);
const argValue = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] !== undefined ? Number(args[i + 1]) : fallback;
};
const SECONDS = argValue('--seconds', 600);
const CLIENTS = argValue('--clients', 24);
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 1_000_000);
const NEKTON = join(import.meta.dirname, '..', 'bin', 'nekton');
const USER = 'fuzz';
const PASSWORD = 'fuzz-password';
const AUTH = `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString('base64')}`;
const PASSWORD_HASH = createHash('sha256').update(PASSWORD).digest('base64');
const BODY_LIMIT = 1024 * 1024;
const MAX_SLOW_CLIENTS = 16;

/** mulberry32: a small seeded generator, so a failing run can be replayed. */
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = prng(SEED);
const pick = (list) => list[Math.floor(random() * list.length)];
const int = (n) => Math.floor(random() * n);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

const authSection = (port) => `http:
  address: 127.0.0.1:${port}
  max_body_size: ${BODY_LIMIT}
  basic_auth:
    enabled: true
    username: ${USER}
    password_hash: ${PASSWORD_HASH}
    algorithm: sha256
logger:
  level: error
`;

/** Starts both nekton processes; returns them with every listener to attack. */
async function startTargets(dir) {
  const [normalMain, normalIn, normalOut, streamsMain, streamsIn, streamsOut] = await Promise.all(
    Array.from({ length: 6 }, freePort),
  );
  const normalConfig = join(dir, 'normal.yaml');
  writeFileSync(
    normalConfig,
    `${authSection(normalMain)}input:
  broker:
    inputs:
      - http_server: { path: /post, timeout: 1s }
      - http_server: { address: 127.0.0.1:${normalIn}, path: /post, timeout: 1s }
output:
  http_server: { address: 127.0.0.1:${normalOut}, path: /get, stream_path: /get/stream, ws_path: /get/ws, timeout: 500ms }
`,
  );
  writeFileSync(join(dir, 'observability.yaml'), authSection(streamsMain));
  const streamFiles = {
    own_in: `input:\n  http_server: { address: 127.0.0.1:${streamsIn}, path: /post, timeout: 1s }\noutput:\n  drop: {}\n`,
    shared_in: 'input:\n  http_server: { path: /post, timeout: 1s }\noutput:\n  drop: {}\n',
    own_out: `input:\n  generate: { interval: 20ms, mapping: 'root = {"n": counter()}' }\noutput:\n  http_server: { address: 127.0.0.1:${streamsOut}, path: /get, stream_path: /get/stream, ws_path: /get/ws, timeout: 500ms }\n`,
  };
  const streamsPath = join(dir, 'stream-files');
  mkdirSync(streamsPath);
  for (const [id, text] of Object.entries(streamFiles)) writeFileSync(join(streamsPath, `${id}.yaml`), text);
  const normal = launch('normal', ['-c', normalConfig]);
  const streams = launch('streams', ['streams', '-o', join(dir, 'observability.yaml'), streamsPath]);
  const mainPaths = ['/ping', '/version', '/ready', '/endpoints', '/nope', '/nekton/ping', '/metrics'];
  const targets = [
    { name: 'normal main', process: normal, port: normalMain, main: true, paths: [...mainPaths, '/post'] },
    { name: 'normal http_server input', process: normal, port: normalIn, paths: ['/post', '/nope'] },
    {
      name: 'normal http_server output',
      process: normal,
      port: normalOut,
      paths: ['/get', '/get/stream', '/get/ws'],
    },
    {
      name: 'streams main',
      process: streams,
      port: streamsMain,
      main: true,
      api: true,
      paths: [...mainPaths, '/streams', '/streams/own_in', '/streams/zz', '/resources', '/shared_in/post'],
    },
    { name: 'streams http_server input', process: streams, port: streamsIn, paths: ['/post', '/nope'] },
    {
      name: 'streams http_server output',
      process: streams,
      port: streamsOut,
      paths: ['/get', '/get/stream', '/get/ws'],
    },
  ];
  for (const target of targets) target.stats = { attacks: 0, statuses: {}, fiveHundreds: [] };
  await Promise.all([normal, streams].map((p) => waitForPing(p, p === normal ? normalMain : streamsMain)));
  // The own-address listeners come up once the streams connect.
  for (const target of targets) await waitForListener(target.port);
  return { processes: [normal, streams], targets };
}

function launch(mode, argv) {
  const child = spawn(process.execPath, [NEKTON, ...argv], { stdio: ['ignore', 'pipe', 'pipe'] });
  const proc = { mode, child, output: '', exited: null };
  const keep = (d) => {
    proc.output = (proc.output + d).slice(-20_000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  child.on('exit', (code, signal) => {
    proc.exited = { code, signal };
  });
  return proc;
}

async function waitForPing(proc, port) {
  for (let i = 0; i < 200; i++) {
    if (proc.exited) throw new Error(`${proc.mode} nekton exited at start:\n${proc.output}`);
    const reply = await exchange(
      port,
      request('GET', '/ping', { Authorization: AUTH }, '', port),
      'read',
      1000,
    );
    if (reply.startsWith('HTTP/1.1 200')) return;
    await sleep(100);
  }
  throw new Error(`${proc.mode} nekton did not answer /ping:\n${proc.output}`);
}

async function waitForListener(port) {
  for (let i = 0; i < 200; i++) {
    const reply = await exchange(port, request('GET', '/nope', {}, '', port), 'read', 1000);
    if (reply.startsWith('HTTP/')) return;
    await sleep(100);
  }
  throw new Error(`nothing listens on ${port}`);
}

/** One request's bytes; `Connection: close` unless keepAlive, so a reader sees the end at once. */
function request(method, path, headers, body, port, keepAlive = false) {
  const lines = [`${method} ${path} HTTP/1.1`, `Host: 127.0.0.1:${port}`];
  if (!keepAlive) lines.push('Connection: close');
  for (const [k, v] of Object.entries(headers)) lines.push(`${k}: ${v}`);
  if (
    body !== undefined &&
    body !== '' &&
    !('Transfer-Encoding' in headers) &&
    !('Content-Length' in headers)
  )
    lines.push(`Content-Length: ${Buffer.byteLength(body)}`);
  return `${lines.join('\r\n')}\r\n\r\n${body ?? ''}`;
}

/**
 * Writes `bytes` and then: 'read' reads until the server closes or `timeoutMs`, 'reset' sends an RST,
 * 'end' half-closes and reads. Resolves with what came back; never rejects.
 */
function exchange(port, bytes, then, timeoutMs = 4000, delayMs = 0) {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    const chunks = [];
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(Buffer.concat(chunks).toString('latin1'));
    };
    const timer = setTimeout(finish, timeoutMs);
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', finish);
    socket.on('close', finish);
    socket.on('connect', () => {
      socket.write(bytes);
      const act = () => {
        if (then === 'reset') {
          socket.resetAndDestroy();
          finish();
        } else if (then === 'end') socket.end();
      };
      if (delayMs > 0) setTimeout(act, delayMs);
      else act();
    });
  });
}

/** Every status line in a (possibly pipelined) answer. */
function statusesOf(text) {
  return [...text.matchAll(/HTTP\/1\.[01] (\d{3})/g)].map((m) => Number(m[1]));
}

const failures = [];
function fail(message) {
  if (failures.length < 50) failures.push(message);
}

function record(target, attack, text) {
  for (const status of statusesOf(text)) {
    target.stats.statuses[status] = (target.stats.statuses[status] ?? 0) + 1;
    if (status === 500) {
      target.stats.fiveHundreds.push(attack);
      fail(`${target.name}: 500 on ${attack}`);
    }
  }
}

const GARBAGE = [
  () => Buffer.from(Array.from({ length: 1 + int(4096) }, () => int(256))),
  () => 'GET / HTTP/9.9\r\n\r\n',
  () => 'GET\r\n\r\n',
  () => '\r\n\r\n\r\n',
  () => 'POST /post HTTP/1.1\r\nContent-Length: -5\r\n\r\n',
  () => 'POST /post HTTP/1.1\r\nContent-Length: 5\r\nContent-Length: 7\r\n\r\nhello',
  () => 'GET /%ZZ%00 HTTP/1.1\r\nHost: a\r\n\r\n',
  () => `GET /${'a'.repeat(70_000)} HTTP/1.1\r\nHost: a\r\n\r\n`,
  () => 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n',
  () => 'GET / HTTP/1.1\r\nHost: a\r\nX: \u0000\u0001\r\n\r\n',
];

/** The attacks; each returns a short description of what it sent. */
const ATTACKS = {
  async resetMidRequest(t) {
    const path = pick(t.paths);
    const body = 'x'.repeat(int(50_000));
    const bytes = request(
      'POST',
      path,
      { Authorization: AUTH, 'Content-Length': String(body.length + 1000) },
      body,
      t.port,
    );
    await exchange(t.port, bytes.slice(0, int(bytes.length)), 'reset', 2000, int(5));
    return `reset mid-request ${path}`;
  },
  async upgradeReset(t) {
    const path = pick(t.paths);
    const headers = { Connection: 'Upgrade', Upgrade: 'websocket', 'Sec-WebSocket-Version': '13' };
    headers['Sec-WebSocket-Key'] = 'dGhlIHNhbXBsZSBub25jZQ==';
    if (random() < 0.5) headers.Authorization = AUTH;
    const text = await exchange(
      t.port,
      request('GET', path, headers, '', t.port),
      random() < 0.7 ? 'reset' : 'end',
      2000,
      int(4),
    );
    record(t, `upgrade ${path}`, text);
    return `upgrade+reset ${path}`;
  },
  async garbage(t) {
    const text = await exchange(t.port, pick(GARBAGE)(), random() < 0.5 ? 'end' : 'read', 2000);
    record(t, 'garbage', text);
    return 'garbage';
  },
  async pipelined(t) {
    const count = 2 + int(10);
    let bytes = '';
    for (let i = 0; i < count; i++)
      bytes += request('GET', pick(t.paths), { Authorization: AUTH }, '', t.port, i < count - 1);
    const text = await exchange(t.port, bytes, random() < 0.3 ? 'reset' : 'end', 3000, int(3));
    record(t, 'pipelined', text);
    return `pipelined x${count}`;
  },
  async slowloris(t) {
    if (slowClients >= MAX_SLOW_CLIENTS) return ATTACKS.garbage(t);
    slowClients++;
    try {
      await new Promise((resolve) => {
        const socket = connect({ host: '127.0.0.1', port: t.port });
        let sent = 0;
        const stop = () => {
          clearInterval(drip);
          socket.destroy();
          resolve();
        };
        const drip = setInterval(() => {
          if (sent++ > 30 || Date.now() > deadline) return stop();
          socket.write(
            sent === 1 ? `GET ${pick(t.paths)} HTTP/1.1\r\n` : `X-Slow-${sent}: ${'y'.repeat(10)}\r\n`,
          );
        }, 300);
        socket.on('error', stop);
        socket.on('close', stop);
      });
    } finally {
      slowClients--;
    }
    return 'slowloris';
  },
  async hugeHeaders(t) {
    const headers = { Authorization: AUTH };
    for (let i = 0; i < 20; i++) headers[`X-Big-${i}`] = 'h'.repeat(4000);
    const text = await exchange(t.port, request('GET', pick(t.paths), headers, '', t.port), 'read', 3000);
    record(t, 'huge headers', text);
    return 'huge headers';
  },
  async declaredHugeBody(t) {
    const path = pick(t.paths);
    const headers = { Authorization: AUTH, 'Content-Length': String(5 * 1024 ** 3 + int(1000)) };
    const text = await exchange(
      t.port,
      request('POST', path, headers, 'z'.repeat(int(100_000)), t.port),
      'read',
      3000,
    );
    record(t, `declared-huge ${path}`, text);
    return 'declared huge body';
  },
  async hugeBody(t) {
    const path = pick(t.paths);
    const head = request('POST', path, { Authorization: AUTH, 'Transfer-Encoding': 'chunked' }, '', t.port);
    const chunk = `${(64 * 1024).toString(16)}\r\n${'q'.repeat(64 * 1024)}\r\n`;
    // Past the 1 MiB limit: 413 (or 404/401/405 for paths that read no body).
    const body = chunk.repeat(24) + (random() < 0.5 ? '0\r\n\r\n' : '');
    const text = await exchange(t.port, head + body, 'read', 4000);
    record(t, `huge body ${path}`, text);
    return 'huge body';
  },
  async badChunked(t) {
    const bodies = [
      'ZZ\r\nabc\r\n0\r\n\r\n',
      '5\r\nab\r\n0\r\n\r\n',
      'fffffffffffffffff\r\n',
      '3;ext=\u0000\r\nabc\r\n',
    ];
    const path = pick(t.paths);
    const head = request('POST', path, { Authorization: AUTH, 'Transfer-Encoding': 'chunked' }, '', t.port);
    const text = await exchange(t.port, head + pick(bodies), random() < 0.5 ? 'end' : 'read', 2000);
    record(t, `bad chunked ${path}`, text);
    return 'bad chunked';
  },
  async halfClose(t) {
    const text = await exchange(
      t.port,
      request('GET', pick(t.paths), { Authorization: AUTH }, '', t.port),
      'end',
      2000,
    );
    record(t, 'half-close', text);
    return 'half-close';
  },
  async crossSite(t) {
    if (!t.main) return ATTACKS.pipelined(t);
    const path = t.api ? '/streams/fuzz_evil' : '/ping';
    const headers = { Authorization: AUTH, Origin: 'https://evil.example', 'Content-Type': 'text/plain' };
    const text = await exchange(
      t.port,
      request('POST', path, headers, 'input: {stdin: {}}', t.port),
      'read',
      3000,
    );
    const [status] = statusesOf(text);
    if (status !== 403) fail(`${t.name}: cross-site POST ${path} answered ${status ?? 'nothing'}, not 403`);
    record(t, 'cross-site', text);
    return 'cross-site';
  },
};
let slowClients = 0;
let deadline = Number.POSITIVE_INFINITY;

function sample(proc) {
  try {
    const status = readFileSync(`/proc/${proc.child.pid}/status`, 'utf8');
    const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    const fds = readdirSync(`/proc/${proc.child.pid}/fd`).length;
    return { rssMb: rssKb / 1024, fds };
  } catch {
    return { rssMb: 0, fds: 0 };
  }
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'nekton-fuzz-'));
  let setup;
  try {
    setup = await startTargets(dir);
  } catch (err) {
    console.error(`fuzz: could not start nekton: ${err.message}`);
    process.exitCode = 1;
    rmSync(dir, { recursive: true, force: true });
    return;
  }
  const { processes, targets } = setup;
  await sleep(500);
  const start = new Map(processes.map((p) => [p, sample(p)]));
  const peak = new Map(processes.map((p) => [p, { ...start.get(p) }]));
  const started = Date.now();
  deadline = started + SECONDS * 1000;
  const counts = {};
  let pingWorstMs = 0;

  const worker = async () => {
    while (Date.now() < deadline && !processes.some((p) => p.exited)) {
      const target = pick(targets);
      const name = pick(Object.keys(ATTACKS));
      target.stats.attacks++;
      counts[name] = (counts[name] ?? 0) + 1;
      await ATTACKS[name](target);
    }
  };
  const watch = async () => {
    while (Date.now() < deadline && !processes.some((p) => p.exited)) {
      for (const proc of processes) {
        const now = sample(proc);
        const top = peak.get(proc);
        top.rssMb = Math.max(top.rssMb, now.rssMb);
        top.fds = Math.max(top.fds, now.fds);
      }
      for (const t of targets.filter((x) => x.main)) {
        const began = Date.now();
        const text = await exchange(
          t.port,
          request('GET', '/ping', { Authorization: AUTH }, '', t.port),
          'read',
          10_000,
        );
        const took = Date.now() - began;
        pingWorstMs = Math.max(pingWorstMs, took);
        if (!text.startsWith('HTTP/1.1 200'))
          fail(`${t.name}: /ping answered ${JSON.stringify(text.slice(0, 40))} during the run`);
      }
      await sleep(1000);
    }
  };
  await Promise.all([watch(), ...Array.from({ length: CLIENTS }, worker)]);

  for (const proc of processes)
    if (proc.exited)
      fail(`${proc.mode} nekton died: ${JSON.stringify(proc.exited)}\n${proc.output.slice(-3000)}`);
  // Back near the start once the clients are gone (keep-alive and header timeouts may take a while).
  const settled = new Map();
  for (let i = 0; i < 60; i++) {
    for (const proc of processes) settled.set(proc, sample(proc));
    const calm = processes.every((p) => settled.get(p).fds <= start.get(p).fds + 16);
    if (calm) break;
    await sleep(500);
  }
  for (const proc of processes) {
    if (proc.exited) continue;
    const before = start.get(proc);
    const after = settled.get(proc);
    if (after.fds > before.fds + 16)
      fail(`${proc.mode}: ${after.fds} fds open after the run, ${before.fds} at start`);
    if (after.rssMb > Math.max(before.rssMb * 2.5, before.rssMb + 250))
      fail(
        `${proc.mode}: RSS ${after.rssMb.toFixed(0)} MB after the run, ${before.rssMb.toFixed(0)} MB at start`,
      );
  }
  for (const t of targets.filter((x) => x.main)) {
    const text = await exchange(
      t.port,
      request('GET', '/ping', { Authorization: AUTH }, '', t.port),
      'read',
      5000,
    );
    if (!text.startsWith('HTTP/1.1 200'))
      fail(`${t.name}: /ping after the run answered ${JSON.stringify(text.slice(0, 40))}`);
  }

  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  const elapsed = (Date.now() - started) / 1000;
  console.log(`fuzz: seed ${SEED}, ${elapsed.toFixed(0)} s, ${CLIENTS} clients, ${total} attacks`);
  console.log(
    `  attacks: ${Object.entries(counts)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
  );
  for (const t of targets) {
    const statuses = Object.entries(t.stats.statuses)
      .map(([k, v]) => `${k}:${v}`)
      .join(' ');
    console.log(`  ${t.name.padEnd(28)} ${String(t.stats.attacks).padStart(6)} attacks  answers ${statuses}`);
  }
  for (const proc of processes) {
    const s = start.get(proc);
    const p = peak.get(proc);
    const e = settled.get(proc) ?? s;
    console.log(
      `  ${proc.mode.padEnd(8)} RSS ${s.rssMb.toFixed(0)} -> peak ${p.rssMb.toFixed(0)} -> end ${e.rssMb.toFixed(0)} MB; fds ${s.fds} -> peak ${p.fds} -> end ${e.fds}; alive: ${proc.exited ? 'NO' : 'yes'}`,
    );
  }
  console.log(`  slowest /ping during the run: ${pingWorstMs} ms`);
  for (const proc of processes) if (!proc.exited) proc.child.kill('SIGTERM');
  await Promise.all(
    processes.map((p) => (p.exited ? undefined : new Promise((r) => p.child.once('exit', r)))),
  );
  rmSync(dir, { recursive: true, force: true });
  if (failures.length > 0) {
    console.log(`FAILED (${failures.length}):\n  ${failures.join('\n  ')}`);
    process.exitCode = 1;
  } else {
    console.log('OK: no crash, no 500, cross-site refused, RSS and fds back near the start');
  }
}

await main();
