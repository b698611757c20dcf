// The exporters as a user configures them: a config file run by the built CLI.
import assert from 'node:assert/strict';
import { createSocket } from 'node:dgram';
import { writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runNekton, tempDir } from '../helpers/cli.js';

const STREAM = [
  'input:',
  '  generate: {mapping: "root = 1", count: 5, interval: ""}',
  'output:',
  '  drop: {}',
].join('\n');

describe('metrics exporters from a config file', () => {
  it('statsd receives the mapped series of a normal-mode run', async () => {
    const socket = createSocket('udp4');
    const lines: string[] = [];
    socket.on('message', (d) => lines.push(...d.toString().split('\n')));
    await new Promise<void>((r) => socket.bind(0, '127.0.0.1', r));
    const { port } = socket.address() as AddressInfo;
    const config = join(tempDir(), 'c.yaml');
    writeFileSync(
      config,
      [
        'http: {enabled: false}',
        'logger: {level: OFF}',
        'metrics:',
        '  mapping: |',
        '    root = if this != "output_sent" { deleted() } else { "n_" + this }',
        '    meta label = deleted()',
        '  statsd:',
        `    address: 127.0.0.1:${port}`,
        '    tag_format: influxdb',
        STREAM,
      ].join('\n'),
    );
    try {
      const run = await runNekton(['-c', config]);
      assert.equal(run.code, 0, run.stderr);
      await new Promise((r) => setTimeout(r, 100));
      assert.deepEqual(
        lines.filter((l) => l !== ''),
        ['n_output_sent,path=root.output:5|c'],
      );
    } finally {
      socket.close();
    }
  });

  it('logger metrics print at shutdown into the configured log', async () => {
    const config = join(tempDir(), 'c.yaml');
    writeFileSync(
      config,
      [
        'http: {enabled: false}',
        'logger: {level: INFO, format: json}',
        'metrics:',
        '  logger: {}',
        STREAM,
      ].join('\n'),
    );
    const run = await runNekton(['-c', config]);
    assert.equal(run.code, 0, run.stderr);
    const sent = run.stderr
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l))
      .find((r) => r.msg === 'Counter metric' && r.name === 'output_sent');
    assert.equal(sent?.value, 5);
    assert.equal(sent?.path, 'root.output');
  });
});
