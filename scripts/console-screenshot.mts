// Takes the README's picture of the web console: streams mode with the example streams and one
// busy stream, the Streams tab after a few polls, in Debian's headless Chromium.
// Run: node --import tsx scripts/console-screenshot.mts [out.png]   (default docs/images/console.png)
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { chromium } from 'playwright-core';
import { registry } from '../src/components/registry.js';
import { startStreamsService } from '../src/streams/service.js';

const out = process.argv[2] ?? 'docs/images/console.png';
const dir = mkdtempSync(join(tmpdir(), 'nekton-shot-'));
writeFileSync(join(dir, 'obs.yaml'), 'http:\n  address: 127.0.0.1:0\nlogger:\n  level: OFF\n');
writeFileSync(
  join(dir, 'orders.yaml'),
  'input:\n  generate:\n    interval: 10ms\n    mapping: \'root = {"id": uuid_v4(), "total": random_int(max: 100)}\'\npipeline:\n  processors:\n    - mapping: root = this\n    - mapping: |\n        root = if this.total > 90 { throw("too big") } else { this }\noutput:\n  drop: {}\n',
);
const service = await startStreamsService({
  paths: ['examples/streams', join(dir, 'orders.yaml')],
  observability: join(dir, 'obs.yaml'),
  api: true,
  prefixStreamEndpoints: true,
  watch: false,
  chilled: false,
  sets: [],
  envFiles: [],
  resources: [],
  registry,
});
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
});
try {
  const page = await browser.newPage({ viewport: { width: 1200, height: 620 } });
  await page.goto(`http://127.0.0.1:${service.http.port}/ui?poll=500`);
  await page.waitForTimeout(12_000);
  mkdirSync(dirname(out), { recursive: true });
  await page.screenshot({ path: out });
  console.log(`wrote ${out}`);
} finally {
  await browser.close();
  await service.stop();
}
