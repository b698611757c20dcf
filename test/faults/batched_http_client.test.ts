// http_client with batching, one failing request in 1,000 messages (issue 29): a failed multipart
// request re-sends only its own batch, and with a request per message only the message whose
// request failed is sent again. Every message reaches the server exactly once.
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { afterEach, describe, it } from 'node:test';
import { decodeMultipart } from '../../src/components/http/multipart.js';
import { freePort } from '../helpers/kit.js';
import { linesFile, runYamlToEnd } from './yaml_stream.js';

const MESSAGES = 1000;
const POISON = 'm500';
const messages = Array.from({ length: MESSAGES }, (_, i) => `m${i}`);

/** A server that answers 500 to the first request holding POISON and records what it accepted. */
class PoisonedOnceServer {
  readonly accepted: string[] = [];
  failures = 0;
  private server: Server | null = null;

  async start(): Promise<number> {
    const port = await freePort();
    this.server = createServer(async (req, res) => {
      const parts = partsOf(req, await bodyOf(req));
      if (this.failures === 0 && parts.some((p) => p.replace(/!$/, '') === POISON)) {
        this.failures++;
        res.writeHead(500).end('poisoned');
        return;
      }
      // A pipeline may mark what it processed with a trailing '!'.
      for (const p of parts) this.accepted.push(p.replace(/!$/, ''));
      res.writeHead(200).end('ok');
    });
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    return port;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

async function bodyOf(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function partsOf(req: IncomingMessage, body: Buffer): string[] {
  const boundary = /boundary=([^;]+)/.exec(req.headers['content-type'] ?? '')?.[1];
  if (!boundary) return [body.toString()];
  return decodeMultipart(body, boundary).map((p) => p.toString());
}

/** The messages accepted more than once, and those never accepted. */
function deliveryFaults(accepted: string[]): { twice: string[]; missing: string[] } {
  const counts = new Map<string, number>();
  for (const m of accepted) counts.set(m, (counts.get(m) ?? 0) + 1);
  return {
    twice: [...counts].filter(([, n]) => n > 1).map(([m]) => m),
    missing: messages.filter((m) => !counts.has(m)),
  };
}

function config(file: string, port: number, multipart: boolean, pipeline = ''): string {
  return `
input:
  file:
    paths: [ ${file} ]
    codec: lines
${pipeline}
output:
  http_client:
    url: http://127.0.0.1:${port}/ingest
    verb: POST
    retries: 0
    batch_as_multipart: ${multipart}
    max_in_flight: 4
    batching:
      count: 50
`;
}

describe('http_client with batching, one failing request in 1,000 messages', () => {
  let server: PoisonedOnceServer;
  afterEach(() => server.stop());

  it('batch_as_multipart: re-sends only the multipart batch that failed', async () => {
    server = new PoisonedOnceServer();
    const port = await server.start();
    await runYamlToEnd(config(linesFile(messages), port, true));
    assert.equal(server.failures, 1, 'the poisoned request was never refused');
    const { twice, missing } = deliveryFaults(server.accepted);
    assert.deepEqual(twice, [], `${twice.length} messages arrived twice`);
    assert.deepEqual(missing, [], 'a message was lost');
  });

  it('with pipeline processors too (what they made is traced back to the messages read)', async () => {
    server = new PoisonedOnceServer();
    const port = await server.start();
    const pipeline = `pipeline:
  processors:
    - mapping: 'root = content().string() + "!"'`;
    await runYamlToEnd(config(linesFile(messages), port, false, pipeline));
    assert.equal(server.failures, 1, 'the poisoned request was never refused');
    const { twice, missing } = deliveryFaults(server.accepted);
    assert.deepEqual(twice, [], `${twice.length} messages arrived twice`);
    assert.deepEqual(missing, [], 'a message was lost');
  });

  it('a request per message: re-sends only the message whose request failed (per-message errors)', async () => {
    server = new PoisonedOnceServer();
    const port = await server.start();
    await runYamlToEnd(config(linesFile(messages), port, false));
    assert.equal(server.failures, 1, 'the poisoned request was never refused');
    const { twice, missing } = deliveryFaults(server.accepted);
    assert.deepEqual(twice, [], `${twice.length} messages arrived twice`);
    assert.deepEqual(missing, [], 'a message was lost');
  });
});
