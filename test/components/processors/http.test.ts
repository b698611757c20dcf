// biome-ignore-all lint/suspicious/noTemplateCurlyInString: Bloblang interpolations, not JS templates
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import { registry } from '../../../src/components/registry.js';
import { normaliseComponent } from '../../../src/config/normalise.js';
import { schemaProvider } from '../../../src/config/schema.js';
import type { Processor, RateLimit } from '../../../src/engine/component.js';
import { ResourceManager } from '../../../src/engine/resources.js';
import { Message } from '../../../src/message/message.js';
import { createTestEnv } from '../../helpers/context.js';

interface Seen {
  method: string;
  url: string;
  body: string;
  headers: IncomingMessage['headers'];
}

type Handler = (req: Seen, res: ServerResponse) => void;

const provider = schemaProvider(registry);
const processorConfig = (raw: Record<string, unknown>) =>
  normaliseComponent('processor', raw, { docPath: [], configPath: 'root.processor' }, { provider });

describe('http processor', () => {
  let server: Server;
  let base = '';
  const seen: Seen[] = [];
  /** Answers the next requests, one handler each; once spent, 200 echoing the body. */
  let script: Handler[] = [];
  const echo: Handler = (req, res) => res.writeHead(200).end(`echo:${req.body}`);
  const built: Processor[] = [];

  before(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const s = {
          method: req.method ?? '',
          url: req.url ?? '',
          body: Buffer.concat(chunks).toString(),
          headers: req.headers,
        };
        seen.push(s);
        (script.shift() ?? echo)(s, res);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    for (const p of built.splice(0)) await p.close();
    await new Promise<void>((r) => server.close(() => r()));
  });
  beforeEach(async () => {
    seen.length = 0;
    script = [];
    for (const p of built.splice(0)) await p.close();
  });

  async function build(raw: Record<string, unknown>, resources?: ResourceManager): Promise<Processor> {
    const proc = await createTestEnv({ resources }).builder.buildProcessor(processorConfig(raw));
    built.push(proc);
    return proc;
  }

  const http = (fields: Record<string, unknown>) =>
    build({ http: { url: `${base}/api`, retry_period: '5ms', ...fields } });

  const status = (code: number, body = `status ${code}`, headers: Record<string, string> = {}): Handler => {
    return (_req, res) => res.writeHead(code, headers).end(body);
  };

  it('replaces each message with its response, keeping metadata and adding http_status_code', async () => {
    const proc = await http({});
    const msg = new Message('hello');
    msg.setMeta('id', 'k1');
    const [out] = await proc.process([msg, new Message('world')]);
    assert.deepEqual(
      out?.map((m) => [m.text(), m.getMeta('id'), m.getMeta('http_status_code'), m.error]),
      [
        ['echo:hello', 'k1', 200, null],
        ['echo:world', undefined, 200, null],
      ],
    );
    assert.deepEqual(
      seen.map((s) => [s.method, s.body]),
      [
        ['POST', 'hello'],
        ['POST', 'world'],
      ],
    );
    assert.equal(msg.text(), 'hello', 'the input message is not modified');
  });

  it('interpolates url and headers per message, and uses the verb', async () => {
    const proc = await http({
      url: `${base}/items/\${! json("id") }`,
      verb: 'PUT',
      headers: { 'X-Kind': '${! json("kind").uppercase() }', 'X-Fixed': 'f' },
    });
    await proc.process([new Message('{"id":1,"kind":"a"}'), new Message('{"id":2,"kind":"b"}')]);
    assert.deepEqual(
      seen.map((s) => [s.method, s.url, s.headers['x-kind'], s.headers['x-fixed']]),
      [
        ['PUT', '/items/1', 'A', 'f'],
        ['PUT', '/items/2', 'B', 'f'],
      ],
    );
  });

  it('sends the messages of a batch one after another unless parallel is set', async () => {
    // The server holds each reply until it has seen both requests or 300ms passed: serial
    // requests arrive alone, parallel ones together.
    const pending: (() => void)[] = [];
    const held: Handler = (req, res) => {
      const reply = () => res.writeHead(200).end(`${req.body}:${seen.length}`);
      pending.push(reply);
      if (pending.length === 2) for (const r of pending.splice(0)) r();
      else
        setTimeout(() => {
          const at = pending.indexOf(reply);
          if (at >= 0) pending.splice(at, 1)[0]?.();
        }, 300);
    };
    script = [held, held];
    const serial = await http({});
    const [one] = await serial.process([new Message('a'), new Message('b')]);
    assert.deepEqual(
      one?.map((m) => m.text()),
      ['a:1', 'b:2'],
    );
    seen.length = 0;
    script = [held, held];
    const parallel = await http({ parallel: true });
    const [both] = await parallel.process([new Message('a'), new Message('b')]);
    assert.deepEqual(
      both?.map((m) => m.text()),
      ['a:2', 'b:2'],
    );
  });

  it('sends a batch as one multipart request and splits a multipart response into messages', async () => {
    script = [
      (req, res) => {
        res
          .writeHead(200, { 'content-type': 'multipart/mixed; boundary=XYZ', 'x-trace': 't1' })
          .end(`--XYZ\r\ncontent-type: text/plain\r\n\r\nfirst\r\n--XYZ\r\n\r\nsecond\r\n--XYZ--\r\n`);
        assert.match(String(req.headers['content-type']), /^multipart\/mixed; boundary=/);
      },
    ];
    const proc = await http({ batch_as_multipart: true, extract_headers: { include_prefixes: ['x-'] } });
    const a = new Message('one');
    a.setMeta('n', 1);
    const b = new Message('two');
    b.setMeta('n', 2);
    const [out] = await proc.process([a, b]);
    assert.equal(seen.length, 1);
    assert.match(seen[0]?.body ?? '', /\r\n\r\none\r\n--[0-9a-f]+\r\n.*\r\n\r\ntwo\r\n--[0-9a-f]+--/s);
    assert.deepEqual(
      out?.map((m) => [m.text(), m.getMeta('n'), m.getMeta('x-trace'), m.getMeta('http_status_code')]),
      [
        ['first', 1, 't1', 200],
        ['second', 2, 't1', 200],
      ],
    );
  });

  it('flags the messages when a multipart response has no parts, or several where one is expected', async () => {
    const twoParts = status(200, '--B\r\n\r\n1\r\n--B\r\n\r\n2\r\n--B--\r\n', {
      'content-type': 'multipart/mixed; boundary=B',
    });
    script = [status(200, 'garbage', { 'content-type': 'multipart/mixed; boundary=B' })];
    const whole = await http({ batch_as_multipart: true });
    const [empty] = await whole.process([new Message('a'), new Message('b')]);
    assert.deepEqual(
      empty?.map((m) => [m.text(), m.error?.message]),
      [
        ['a', `HTTP response from '${base}/api' was empty`],
        ['b', `HTTP response from '${base}/api' was empty`],
      ],
    );
    script = [twoParts, status(200, 'single')];
    const parallel = await http({ parallel: true });
    const [out] = await parallel.process([new Message('a'), new Message('b')]);
    assert.deepEqual(out?.map((m) => m.error?.message ?? m.text()).sort(), [
      'single',
      'unexpected response size: 2',
    ]);
    script = [twoParts];
    const serial = await http({});
    const [split] = await serial.process([new Message('a')]);
    assert.deepEqual(
      split?.map((m) => m.text()),
      ['1', '2'],
    );
  });

  it('retries failed requests, then succeeds', async () => {
    script = [status(500), status(503), status(429)];
    const proc = await http({ retries: 3 });
    const [out] = await proc.process([new Message('x')]);
    assert.equal(seen.length, 4);
    assert.equal(out?.[0]?.text(), 'echo:x');
    assert.equal(out?.[0]?.error, null);
  });

  it('flags the message once retries are spent, keeping its content and setting http_status_code', async () => {
    script = [status(500), status(500, 'bad', { 'x-reason': 'overload' })];
    const proc = await http({ retries: 1, extract_headers: { include_patterns: ['^x-'] } });
    const msg = new Message('original');
    msg.setMeta('keep', 'me');
    const [out] = await proc.process([msg]);
    assert.equal(seen.length, 2);
    const flagged = out?.[0];
    assert.equal(flagged?.text(), 'original');
    assert.equal(flagged?.getMeta('keep'), 'me');
    assert.equal(flagged?.getMeta('http_status_code'), 500);
    assert.equal(flagged?.getMeta('x-reason'), 'overload');
    assert.match(flagged?.error?.message ?? '', /HTTP status 500/);
  });

  it('flags the message at once, without retries, on a drop_on status', async () => {
    script = [status(400)];
    const proc = await http({ drop_on: [400], retries: 3 });
    const [out] = await proc.process([new Message('x')]);
    assert.equal(seen.length, 1);
    assert.equal(out?.length, 1, 'the message is not lost');
    assert.equal(out?.[0]?.text(), 'x');
    assert.equal(out?.[0]?.getMeta('http_status_code'), 400);
    assert.match(out?.[0]?.error?.message ?? '', /HTTP status 400/);
  });

  it('treats successful_on statuses as success', async () => {
    script = [status(404, 'not here')];
    const proc = await http({ successful_on: [404] });
    const [out] = await proc.process([new Message('x')]);
    assert.equal(seen.length, 1);
    assert.equal(out?.[0]?.text(), 'not here');
    assert.equal(out?.[0]?.getMeta('http_status_code'), 404);
    assert.equal(out?.[0]?.error, null);
  });

  it('copies only the selected response headers into metadata', async () => {
    script = [status(200, 'ok', { 'x-a': '1', 'x-b': '2', 'y-c': '3', 'Set-Cookie': 'c=1' })];
    const proc = await http({ extract_headers: { include_prefixes: ['x-a'], include_patterns: ['^y'] } });
    const [out] = await proc.process([new Message('x')]);
    const meta = Object.fromEntries(out?.[0]?.metadata() ?? []);
    assert.deepEqual(meta, { 'x-a': '1', 'y-c': '3', http_status_code: 200 });
  });

  it('flags only the failed messages of a parallel batch; a connection error flags without a status', async () => {
    script = [status(200, 'fine'), status(500)];
    const proc = await http({ parallel: true, retries: 0 });
    const [out] = await proc.process([new Message('a'), new Message('b')]);
    assert.deepEqual(out?.map((m) => m.error === null).sort(), [false, true]);
    const closed = await http({ url: 'http://127.0.0.1:1/nothing', retries: 0 });
    const [down] = await closed.process([new Message('z')]);
    assert.equal(down?.[0]?.text(), 'z');
    assert.equal(down?.[0]?.getMeta('http_status_code'), undefined);
    assert.match(down?.[0]?.error?.message ?? '', /ECONNREFUSED/);
  });

  it('flags a request that times out', async () => {
    script = [() => {}]; // never answers
    const proc = await http({ timeout: '50ms', retries: 0 });
    const [out] = await proc.process([new Message('slow')]);
    assert.equal(out?.[0]?.text(), 'slow');
    assert.match(out?.[0]?.error?.message ?? '', /timed out/);
  });

  it('hands failed messages to a following catch', async () => {
    script = [status(502)];
    const proc = await http({ retries: 0 });
    const caught = await build({ catch: [{ mapping: 'root = "caught " + @http_status_code.string()' }] });
    const [failed] = await proc.process([new Message('x')]);
    const [out] = await caught.process(failed ?? []);
    assert.equal(out?.[0]?.text(), 'caught 502');
    assert.equal(out?.[0]?.error, null);
  });

  it('answers with a redirect when follow_redirects is off, and follows it otherwise', async () => {
    const redirect = status(302, 'moved', { location: '/elsewhere' });
    script = [redirect];
    const stay = await http({ follow_redirects: false, retries: 0 });
    const [kept] = await stay.process([new Message('x')]);
    assert.deepEqual(
      [kept?.[0]?.text(), kept?.[0]?.getMeta('http_status_code'), kept?.[0]?.error],
      ['moved', 302, null],
    );
    seen.length = 0;
    script = [redirect, status(200, 'arrived')];
    const follow = await http({});
    const [moved] = await follow.process([new Message('x')]);
    assert.equal(moved?.[0]?.text(), 'arrived');
    assert.deepEqual(
      seen.map((s) => [s.method, s.url]),
      [
        ['POST', '/api'],
        ['GET', '/elsewhere'],
      ],
    );
  });

  it('asks the rate_limit resource before every request and waits when told to', async () => {
    const waits = [0, 20, 0];
    let asked = 0;
    const limiter: RateLimit = {
      access: async () => waits[asked++] ?? 0,
      close: async () => {},
    };
    const resources = new ResourceManager();
    await resources.set('rate_limit', 'gate', limiter, {});
    const proc = await build({ http: { url: `${base}/api`, rate_limit: 'gate' } }, resources);
    const [out] = await proc.process([new Message('a'), new Message('b')]);
    assert.deepEqual(
      out?.map((m) => m.text()),
      ['echo:a', 'echo:b'],
    );
    assert.equal(asked, 3, 'one access for a, two for b (the first said wait)');
  });

  it('fails at build for a missing rate limit resource or a jwt key that is not a key', async () => {
    await assert.rejects(http({ rate_limit: 'nope' }), /rate limit resource 'nope' was not found/);
    const jwt = { enabled: true, signing_method: 'EdDSA', private_key_file: 'package.json' };
    await assert.rejects(http({ jwt }), /jwt\.private_key_file: package\.json is not a PEM private key/);
  });
});
