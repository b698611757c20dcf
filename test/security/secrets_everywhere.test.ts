// biome-ignore-all lint/suspicious/noTemplateCurlyInString: config text with ${ENV} references, not templates
// Credentials outside secret fields never leave through a read: URL and DSN passwords, header values,
// `${VAR}` expansions (shown as posted), the log, and the command line of /debug/stack.
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { scrubCommandLine, scrubReportHeader } from '../../src/config/scrub_command_line.js';
import { SCRUBBED, scrubSecretText } from '../../src/config/secret_text.js';
import { createLogger } from '../../src/engine/logger.js';
import type { StreamsService } from '../../src/streams/service.js';
import { json, send, startService } from '../streams/support.js';

const LITERAL = 'literal-pw-4417';
const EXPANDED = 'expanded-pw-9921';
const VAR = 'NEKTON_TEST_SECRET_READ_PW';

describe('scrubSecretText', () => {
  const cases: [string, string][] = [
    ['redis://u:pw1@localhost:6379/0', `redis://u:${SCRUBBED}@localhost:6379/0`],
    ['amqp://guest:pw2@h1:5672,amqp://a:pw3@h2', `amqp://guest:${SCRUBBED}@h1:5672,amqp://a:${SCRUBBED}@h2`],
    ['root:pw4@tcp(127.0.0.1:3306)/db', `root:${SCRUBBED}@tcp(127.0.0.1:3306)/db`],
    ['host=a user=b password=pw5 dbname=c', `host=a user=b password=${SCRUBBED} dbname=c`],
    ['failed: Authorization: Bearer pw6', `failed: Authorization: ${SCRUBBED}`],
    ['postgres://u:${PG_PASS}@h/db', 'postgres://u:${PG_PASS}@h/db'],
    ['http://user@host/path', 'http://user@host/path'],
  ];
  for (const [input, expected] of cases) {
    it(`hides the credential in ${JSON.stringify(input)}`, () =>
      assert.equal(scrubSecretText(input), expected));
  }
});

describe('the command line in /debug/stack', () => {
  it('hides every --set value, in both spellings, and URL passwords in other arguments', () => {
    const shown = scrubCommandLine([
      'node',
      'nekton',
      '--set',
      'output.redis.password=pw7',
      '-s',
      'a.b=pw8',
      '--set=c.d=pw9',
      'redis://u:pw10@h',
    ]);
    assert.ok(!shown.join(' ').match(/pw7|pw8|pw9|pw10/), shown.join(' '));
    assert.equal(shown[3], `output.redis.password=${SCRUBBED}`);
    const header = scrubReportHeader({ commandLine: ['nekton', '-s', 'x=pw11'], cwd: '/' }) as {
      commandLine: string[];
      cwd: string;
    };
    assert.deepEqual(header.commandLine, ['nekton', '-s', `x=${SCRUBBED}`]);
    assert.equal(header.cwd, '/');
  });
});

describe('the log', () => {
  it('never carries a URL password or a header value', () => {
    const lines: string[] = [];
    const out = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const logger = createLogger({ level: 'INFO' }, out);
    logger.error(`failed to connect output, retrying: dial redis://u:${LITERAL}@127.0.0.1:1 refused`);
    logger.child({ stream: 's' }).warn(`request had Authorization: Bearer ${LITERAL}`);
    const text = lines.join('');
    assert.equal(lines.length, 2);
    assert.ok(!text.includes(LITERAL), text);
    assert.ok(text.includes('redis://u:'), text);
  });
});

describe('API reads of streams and resources', () => {
  let service: StreamsService;
  before(async () => {
    process.env[VAR] = EXPANDED;
    service = await startService({
      observabilityYaml: [
        'http:',
        '  address: 127.0.0.1:0',
        '  debug_endpoints: true',
        'logger:',
        '  level: OFF',
        'output_resources:',
        '  - label: shared_out',
        '    http_client:',
        `      url: http://svc:${LITERAL}@127.0.0.1:9/obs`,
        '',
      ].join('\n'),
    });
  });
  after(async () => {
    delete process.env[VAR];
    await service.stop();
  });

  const clientStream = (url: string) =>
    [
      'input:',
      '  generate:',
      '    count: 1',
      '    mapping: root = deleted()',
      'output:',
      '  http_client:',
      `    url: ${url}`,
      '    headers:',
      `      Authorization: Bearer ${LITERAL}`,
      `      X-Api-Key: ${LITERAL}`,
      '      Content-Type: text/plain',
      '',
    ].join('\n');

  it('GET /streams/{id} hides a URL password and sensitive header values', async () => {
    const created = await send(
      service,
      'POST',
      '/streams/urls',
      clientStream(`http://svc:${LITERAL}@127.0.0.1:9/x`),
    );
    assert.equal(created.status, 200, created.body);
    const got = await send(service, 'GET', '/streams/urls');
    assert.equal(got.status, 200);
    assert.ok(!got.body.includes(LITERAL), got.body);
    const output = (
      json(got).config as { output: { http_client: { url: string; headers: Record<string, string> } } }
    ).output.http_client;
    assert.equal(output.url, `http://svc:${SCRUBBED}@127.0.0.1:9/x`);
    assert.equal(output.headers.Authorization, SCRUBBED);
    assert.equal(output.headers['X-Api-Key'], SCRUBBED);
    assert.equal(output.headers['Content-Type'], 'text/plain');
  });

  it('GET /streams/{id} shows ${VAR} as posted, never its value, also after a PATCH', async () => {
    const created = await send(
      service,
      'POST',
      '/streams/envs',
      clientStream(`http://svc:\${${VAR}}@127.0.0.1:9/x`),
    );
    assert.equal(created.status, 200, created.body);
    const got = await send(service, 'GET', '/streams/envs');
    assert.ok(!got.body.includes(EXPANDED), got.body);
    assert.ok(got.body.includes(`\${${VAR}}`), got.body);
    const patched = await send(
      service,
      'PATCH',
      '/streams/envs',
      JSON.stringify({ output: { http_client: { verb: 'PUT' } } }),
    );
    assert.equal(patched.status, 200, patched.body);
    const again = await send(service, 'GET', '/streams/envs');
    assert.ok(!again.body.includes(EXPANDED), again.body);
    assert.ok(again.body.includes(`\${${VAR}}`) && again.body.includes('"PUT"'), again.body);
  });

  it('resource reads hide URL passwords and show ${VAR} as posted', async () => {
    const body = [
      `http_client:`,
      `  url: http://svc:\${${VAR}}@127.0.0.1:9/r`,
      '  headers:',
      `    Cookie: s=${LITERAL}`,
      '',
    ].join('\n');
    const created = await send(service, 'POST', '/resources/output/posted_out', body);
    assert.equal(created.status, 200, created.body);
    for (const path of ['/resources/output/posted_out', '/resources', '/resources/output/shared_out']) {
      const got = await send(service, 'GET', path);
      assert.equal(got.status, 200, `${path}: ${got.body}`);
      assert.ok(!got.body.includes(LITERAL) && !got.body.includes(EXPANDED), `${path}: ${got.body}`);
    }
    const one = await send(service, 'GET', '/resources/output/posted_out');
    assert.ok(one.body.includes(`\${${VAR}}`), one.body);
  });

  it('/debug/config hides URL passwords of the loaded config', async () => {
    for (const path of ['/debug/config/json', '/debug/config/yaml']) {
      const got = await send(service, 'GET', path);
      assert.equal(got.status, 200, path);
      assert.ok(!got.body.includes(LITERAL), `${path}: ${got.body}`);
      assert.ok(got.body.includes('http://svc:'), `${path}: ${got.body}`);
    }
  });
});
