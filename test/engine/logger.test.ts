import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { openLogFile } from '../../src/engine/log_file.js';
import { createLogger } from '../../src/engine/logger.js';
import { tempDir } from '../helpers/cli.js';

function captured() {
  const lines: string[] = [];
  return { sink: { write: (text: string) => lines.push(...text.split('\n').filter(Boolean)) }, lines };
}

describe('logger section', () => {
  it('writes logfmt with renamed timestamp, level and message keys and static fields', () => {
    const { sink, lines } = captured();
    const logger = createLogger(
      {
        format: 'logfmt',
        add_timestamp: true,
        timestamp_name: 'ts',
        level_name: 'severity',
        message_name: 'text',
        static_fields: { '@service': 'svc', team: 'a b' },
      },
      sink,
    );
    logger.info('hello there');
    assert.match(
      lines[0],
      /^ts=\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z severity=info text="hello there" @service=svc team="a b"$/,
    );
  });

  it('writes JSON with the configured names, and no timestamp when add_timestamp is false', () => {
    const { sink, lines } = captured();
    const json = createLogger(
      { format: 'json', add_timestamp: true, timestamp_name: 'at', level_name: 'lvl', message_name: 'm' },
      sink,
    );
    json.warn('careful');
    const record = JSON.parse(lines[0]);
    assert.equal(record.lvl, 'warn');
    assert.equal(record.m, 'careful');
    assert.ok(!Number.isNaN(Date.parse(record.at)), record.at);
    assert.equal(record['@service'], 'nekton');
    const { sink: plainSink, lines: plain } = captured();
    createLogger({ format: 'json', add_timestamp: false }, plainSink).info('x');
    assert.deepEqual(Object.keys(JSON.parse(plain[0])).sort(), ['@service', 'level', 'msg']);
  });

  it('appends to logger.file instead of stderr', () => {
    const dir = tempDir();
    const path = join(dir, 'nekton.log');
    const file = { path, rotate: false, rotate_max_age_days: 0 };
    createLogger({ format: 'logfmt', file }).info('first');
    createLogger({ format: 'logfmt', file }).info('second');
    const text = readFileSync(path, 'utf8');
    assert.match(text, /^level=info msg=first @service=nekton\nlevel=info msg=second @service=nekton\n$/);
  });

  it('refuses a file it cannot write with a config error', () => {
    assert.throws(
      () => createLogger({ file: { path: '/nonexistent-dir/x.log', rotate: false, rotate_max_age_days: 0 } }),
      /logger\.file\.path: cannot write to \/nonexistent-dir\/x\.log/,
    );
  });

  it('rotates a full file into a gzipped backup and keeps one backup', async () => {
    const dir = tempDir();
    const path = join(dir, 'app.log');
    const sink = openLogFile({ path, rotate: true, rotate_max_age_days: 0 }, 100);
    for (let i = 0; i < 3; i++) {
      sink.write(`${'x'.repeat(60)} ${i}\n`);
      await new Promise((r) => setTimeout(r, 5)); // distinct backup timestamps
    }
    assert.equal(readFileSync(path, 'utf8'), `${'x'.repeat(60)} 2\n`);
    const backups = readdirSync(dir).filter((n) => n !== 'app.log');
    assert.equal(backups.length, 1, backups.join(','));
    assert.match(backups[0], /^app-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3}\.log\.gz$/);
    assert.equal(gunzipSync(readFileSync(join(dir, backups[0]))).toString(), `${'x'.repeat(60)} 1\n`);
  });

  it('does not rotate without rotate: true', () => {
    const dir = tempDir();
    const path = join(dir, 'app.log');
    const sink = openLogFile({ path, rotate: false, rotate_max_age_days: 0 }, 10);
    sink.write('0123456789\n');
    sink.write('0123456789\n');
    assert.deepEqual(readdirSync(dir), ['app.log']);
  });
});
