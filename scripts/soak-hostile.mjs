// `npm run soak:hostile [-- --seconds N]`: feeds a mix of hostile and normal input through every
// decompression algorithm, every scanner, and the Bloblang, NATS and Kafka paths that were
// quadratic, for 10 minutes by default. Prints the peak resident memory and the longest
// event-loop stall, and exits 1 on a wrong outcome or past the bounds:
//   peak RSS           SOAK_RSS_LIMIT_MB        (default 1536)
//   longest stall      SOAK_STALL_LIMIT_MS      (default 2000): all work except Bloblang's
//   Bloblang stall     SOAK_BLOBLANG_STALL_MS   (default 10000): its methods are synchronous, so
//                      one decompress() runs whole, bounded by the 256 MiB limit, not sliced
// Run with tsx (the npm script does): it imports the TypeScript sources directly.
import { randomBytes, randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import * as zlib from 'node:zlib';
import lz4 from 'lz4js';
import snappy from 'snappyjs';

const root = join(import.meta.dirname, '..');
const src = (path) => import(join(root, 'src', path));
const { decompressor } = await src('components/compression.ts');
const { buildScanner } = await src('components/scanners/build.ts');
const { parseMapping } = await src('bloblang/index.ts');
const { Message } = await src('message/message.ts');
const { loadNats } = await src('components/nats/library.ts');
const { headersToMetadata } = await src('components/nats/connection.ts');
const { recordToMessage } = await src('components/kafka/records.ts');
const { createTestContext } = await import(join(root, 'test', 'helpers', 'context.ts'));

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '600' } } });
const seconds = Number(values.seconds);
const rssLimitMb = Number(process.env.SOAK_RSS_LIMIT_MB ?? 1536);
const stallLimitMs = Number(process.env.SOAK_STALL_LIMIT_MS ?? 2000);
const bloblangStallLimitMs = Number(process.env.SOAK_BLOBLANG_STALL_MS ?? 10_000);
const MiB = 1024 * 1024;

// Inputs -------------------------------------------------------------------------------------
console.log('soak:hostile: preparing inputs');
const bzip2Bomb = readFileSync(join(root, 'test/fixtures/compression/zeros-6200000000.bz2'));
const bzip2Lines = readFileSync(join(root, 'test/fixtures/compression/lines.txt.bz2'));
const gzipMember = zlib.gzipSync(Buffer.alloc(MiB));
const gzipBomb = Buffer.concat(Array.from({ length: 4300 }, () => gzipMember));
const zeros300 = Buffer.alloc(300 * MiB);
const zlibBomb = zlib.deflateSync(zeros300, { level: 9 });
const flateBomb = zlib.deflateRawSync(zeros300, { level: 9 });
const lz4Bomb = lz4.compress(zeros300);
const snappyTooLarge = snappy.compress(zeros300);
const snappyTruncated = Uint8Array.of(0xff, 0xff, 0xff, 0xff, 0x07, 0x00, 0x61);
const text = Buffer.from(
  Array.from({ length: 20_000 }, (_, i) => `line ${i}: the quick brown fox jumps over the lazy dog\n`).join(
    '',
  ),
);
const packed = {
  gzip: zlib.gzipSync(text),
  pgzip: zlib.gzipSync(text),
  zlib: zlib.deflateSync(text),
  flate: zlib.deflateRawSync(text),
  lz4: lz4.compress(text),
  snappy: snappy.compress(text),
};
const bombs = {
  bzip2: bzip2Bomb,
  gzip: gzipBomb,
  pgzip: gzipBomb,
  zlib: zlibBomb,
  flate: flateBomb,
  lz4: lz4Bomb,
  snappy: snappyTooLarge,
};
const decoders = {};
for (const algorithm of ['bzip2', 'gzip', 'pgzip', 'zlib', 'flate', 'lz4', 'snappy'])
  decoders[algorithm] = await decompressor(algorithm);

// Checks -------------------------------------------------------------------------------------
function expect(condition, what) {
  if (!condition) throw new Error(`wrong outcome: ${what}`);
}

async function rejects(promise, pattern, what) {
  try {
    await promise;
  } catch (err) {
    expect(
      !pattern || pattern.test(err.message),
      `${what}: error "${err.message}" does not match ${pattern}`,
    );
    return;
  }
  throw new Error(`wrong outcome: ${what} succeeded`);
}

// Sources hand over one chunk per turn of the event loop, as files and sockets do.
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/** `total` bytes of `fill` in 64 KiB chunks, after `head`, then `tail`. */
async function* stream(head, fill, total, tail = '') {
  yield Buffer.from(head);
  const piece = Buffer.alloc(64 * 1024, fill);
  for (let sent = 0; sent < total; sent += piece.length) {
    await nextTurn();
    yield piece;
  }
  if (tail) yield Buffer.from(tail);
}

async function* chunked(data, size = 64 * 1024) {
  for (let at = 0; at < data.length; at += size) {
    await nextTurn();
    yield data.subarray(at, at + size);
  }
}

/** Runs a scanner over a source; resolves to the message count, or rejects with its error. */
async function scanCount(scanner, source) {
  const built = await buildScanner(scanner, createTestContext());
  let count = 0;
  for await (const batch of built(source, {})) count += batch.length;
  return count;
}

const TOO_LONG = /exceeds max_buffer_size/;
const LIMIT = /exceeds the limit/;

// Cases --------------------------------------------------------------------------------------
const cases = [];
const add = (name, run, kind = 'async') => cases.push({ name, run, kind, runs: 0, maxMs: 0, maxGapMs: 0 });

for (const [algorithm, bomb] of Object.entries(bombs)) {
  add(`decompress ${algorithm} bomb`, () => rejects(decoders[algorithm](bomb), LIMIT, `${algorithm} bomb`));
  add(`decompress ${algorithm} garbage`, async () => {
    const garbage = randomBytes(randomInt(1, 4096));
    try {
      const out = await decoders[algorithm](garbage);
      // Random bytes may form a tiny valid snappy block; never anything large.
      expect(algorithm === 'snappy' && out.length < 64 * 4096, `${algorithm} garbage decoded`);
    } catch {
      // an error is the expected outcome
    }
  });
}
for (const [algorithm, data] of Object.entries(packed)) {
  add(`decompress ${algorithm} normal`, async () => {
    expect(Buffer.from(await decoders[algorithm](data)).equals(text), `${algorithm} round trip`);
  });
  add(`decompress ${algorithm} truncated`, () =>
    rejects(
      decoders[algorithm](data.subarray(0, randomInt(1, data.length - 4))),
      null,
      `${algorithm} truncated`,
    ),
  );
}
add('decompress bzip2 normal', async () => {
  expect((await decoders.bzip2(bzip2Lines)).length === 218_890, 'bzip2 lines');
});
add('decompress snappy truncated 7 bytes', () =>
  rejects(decoders.snappy(snappyTruncated), null, 'snappy 7 bytes'),
);

add('scanner lines: 16 MB without newline', () =>
  rejects(scanCount({ lines: { max_buffer_size: MiB } }, stream('', 0x78, 16 * MiB)), TOO_LONG, 'lines'),
);
add('scanner lines |||: 16 MB without delimiter', () =>
  rejects(
    scanCount({ lines: { custom_delimiter: '|||', max_buffer_size: MiB } }, stream('', 0x78, 16 * MiB)),
    TOO_LONG,
    'lines |||',
  ),
);
add('scanner lines: normal', async () =>
  expect((await scanCount({ lines: {} }, chunked(text, 1000))) === 20_000, 'lines'),
);
add('scanner re_match: 16 MB without a match', () =>
  rejects(
    scanCount({ re_match: { pattern: '(?m)^\\d\\d:', max_buffer_size: MiB } }, stream('12:', 0x78, 16 * MiB)),
    TOO_LONG,
    're_match',
  ),
);
add('scanner re_match: normal', async () =>
  expect(
    (await scanCount({ re_match: { pattern: '(?m)^line', max_buffer_size: MiB } }, chunked(text, 999))) ===
      20_000,
    're_match',
  ),
);
add('scanner csv: 64 MB unterminated field', () =>
  rejects(
    scanCount({ csv: { parse_header_row: false } }, stream('a,"', 0x78, 64 * MiB)),
    /quoted-field/,
    'csv',
  ),
);
add('scanner csv: normal', async () =>
  expect(
    (await scanCount({ csv: {} }, chunked(Buffer.from(`a,b\n${'1,"x ""y"""\n'.repeat(20_000)}`), 777))) ===
      20_000,
    'csv',
  ),
);
add('scanner json_documents: one 64 MB document', async () =>
  expect(
    (await scanCount({ json_documents: {} }, stream('{"a":"', 0x78, 64 * MiB, '"} 1 [2]'))) === 3,
    'json_documents',
  ),
);
add('scanner json_documents: unterminated', () =>
  rejects(
    scanCount({ json_documents: {} }, stream('[[[{"a":"', 0x78, 8 * MiB)),
    /unexpected end/,
    'json_documents',
  ),
);
add('scanner json_array: 200,000 elements', async () => {
  const array = Buffer.from(JSON.stringify(Array.from({ length: 200_000 }, (_, i) => ({ i }))));
  expect((await scanCount({ json_array: {} }, chunked(array))) === 200_000, 'json_array');
});
add('scanner chunker: 16 MiB pieces of 64 MiB', async () =>
  expect((await scanCount({ chunker: { size: 16 * MiB } }, stream('', 0x78, 64 * MiB - 1))) === 4, 'chunker'),
);
add('scanner to_the_end: 32 MB', async () =>
  expect((await scanCount({ to_the_end: {} }, stream('', 0x78, 32 * MiB))) === 1, 'to_the_end'),
);
add('scanner skip_bom + lines: normal', async () =>
  expect(
    (await scanCount(
      { skip_bom: { into: { lines: {} } } },
      chunked(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), text])),
    )) === 20_000,
    'skip_bom',
  ),
);
for (const algorithm of ['bzip2', 'gzip', 'zlib', 'flate', 'lz4']) {
  add(`scanner decompress ${algorithm} bomb into lines`, () =>
    rejects(
      scanCount(
        { decompress: { algorithm, into: { lines: { max_buffer_size: MiB } } } },
        chunked(bombs[algorithm], 4096),
      ),
      TOO_LONG,
      `decompress ${algorithm} scanner`,
    ),
  );
}
for (const algorithm of ['gzip', 'zlib', 'flate', 'lz4']) {
  add(`scanner decompress ${algorithm} normal`, async () =>
    expect(
      (await scanCount(
        { decompress: { algorithm, into: { lines: {} } } },
        chunked(packed[algorithm], 100),
      )) === 20_000,
      algorithm,
    ),
  );
}
add('scanner decompress bzip2 normal', async () =>
  expect(
    (await scanCount(
      { decompress: { algorithm: 'bzip2', into: { lines: {} } } },
      chunked(bzip2Lines, 100),
    )) === 4000,
    'bzip2',
  ),
);

const blobl = (mapping) => parseMapping(mapping);
const decompressMapping = blobl('root = content().decompress("bzip2")');
const gzipMapping = blobl('root = content().decompress("gzip")');
const formMapping = blobl('root = content().string().parse_form_url_encoded()');
add(
  'bloblang decompress bzip2 bomb',
  () => {
    try {
      decompressMapping.apply([new Message(bzip2Bomb)], 0);
    } catch (err) {
      expect(LIMIT.test(err.message), `bloblang bzip2: ${err.message}`);
      return;
    }
    throw new Error('wrong outcome: bloblang bzip2 bomb decoded');
  },
  'bloblang',
);
add(
  'bloblang decompress gzip bomb',
  () => {
    try {
      gzipMapping.apply([new Message(gzipBomb)], 0);
    } catch (err) {
      expect(LIMIT.test(err.message), `bloblang gzip: ${err.message}`);
      return;
    }
    throw new Error('wrong outcome: bloblang gzip bomb decoded');
  },
  'bloblang',
);
add(
  'bloblang parse_form_url_encoded: 60,000 repeated keys',
  () => {
    const body = Array.from({ length: 60_000 }, (_, i) => `k=${i}`).join('&');
    expect(formMapping.apply([new Message(body)], 0).structured().k.length === 60_000, 'form');
  },
  'bloblang',
);

const { transport } = await loadNats();
add('nats: a message with 60,000 headers', () => {
  const block = `NATS/1.0\r\n${Array.from({ length: 60_000 }, (_, i) => `h${i}:v\r\n`).join('')}\r\n`;
  const msg = new Message('x');
  headersToMetadata(msg, transport.MsgHdrsImpl.decode(new TextEncoder().encode(block)));
  expect(msg.getMeta('h59999') === 'v', 'nats headers');
});
add('kafka: 100,000 repeats of one header (multi_header)', () => {
  const headers = new Map();
  for (let i = 0; i < 100_000; i++) headers.set(Buffer.from('h'), Buffer.from(String(i)));
  const msg = recordToMessage(
    { headers, topic: 't', partition: 0, offset: 0n, timestamp: 0n, value: null },
    true,
  );
  expect(msg.getMeta('h').length === 100_000, 'kafka headers');
});

// Run ----------------------------------------------------------------------------------------
let current = null;
let last = performance.now();
let peakRssMb = 0;
const ticker = setInterval(() => {
  const now = performance.now();
  const gap = now - last;
  last = now;
  if (current) current.maxGapMs = Math.max(current.maxGapMs, gap);
  peakRssMb = Math.max(peakRssMb, process.memoryUsage.rss() / MiB);
}, 10);

const failures = [];
const deadline = performance.now() + seconds * 1000;
let rounds = 0;
console.log(`soak:hostile: ${cases.length} cases for ${seconds} s`);
while (performance.now() < deadline) {
  rounds++;
  // Every case once per round, in a new random order.
  const order = [...cases].sort(() => Math.random() - 0.5);
  for (const c of order) {
    if (performance.now() >= deadline) break;
    current = c;
    last = performance.now();
    const started = performance.now();
    try {
      await c.run();
    } catch (err) {
      failures.push(`${c.name}: ${err.message}`);
    }
    // The gap a synchronous case caused is seen only after it returns.
    c.maxGapMs = Math.max(c.maxGapMs, performance.now() - last);
    c.maxMs = Math.max(c.maxMs, performance.now() - started);
    c.runs++;
    current = null;
    await new Promise((r) => setImmediate(r));
  }
}
clearInterval(ticker);

const pad = (s, n) => String(s).padEnd(n);
console.log(`\n${pad('case', 52)} ${pad('runs', 6)} ${pad('max ms', 8)} longest stall ms`);
for (const c of cases)
  console.log(
    `${pad(c.name, 52)} ${pad(c.runs, 6)} ${pad(Math.round(c.maxMs), 8)} ${Math.round(c.maxGapMs)}`,
  );
const stall = Math.max(...cases.filter((c) => c.kind === 'async').map((c) => c.maxGapMs));
const bloblangStall = Math.max(...cases.filter((c) => c.kind === 'bloblang').map((c) => c.maxGapMs));
console.log(`\nrounds: ${rounds}`);
console.log(`peak RSS: ${Math.round(peakRssMb)} MB (bound ${rssLimitMb})`);
console.log(
  `longest event-loop stall: ${Math.round(stall)} ms (bound ${stallLimitMs}), Bloblang: ${Math.round(bloblangStall)} ms (bound ${bloblangStallLimitMs})`,
);
if (peakRssMb > rssLimitMb) failures.push(`peak RSS ${Math.round(peakRssMb)} MB over ${rssLimitMb}`);
if (stall > stallLimitMs) failures.push(`event-loop stall ${Math.round(stall)} ms over ${stallLimitMs}`);
if (bloblangStall > bloblangStallLimitMs)
  failures.push(`Bloblang stall ${Math.round(bloblangStall)} ms over ${bloblangStallLimitMs}`);
if (failures.length > 0) {
  console.log(`\nFAILED (${failures.length}):`);
  for (const f of [...new Set(failures)]) console.log(`  ${f}`);
  process.exit(1);
}
console.log('\nok');
process.exit(0);
