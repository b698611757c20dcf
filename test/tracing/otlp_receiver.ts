// A local OTLP/HTTP receiver for tests: collects what exporters POST as OTLP/JSON (the
// exporter-*-otlp-http packages send JSON) to /v1/traces, /v1/metrics and /v1/logs.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
  resource: Record<string, unknown>;
  status?: { code?: number; message?: string };
}

interface KeyValue {
  key: string;
  value: Record<string, unknown>;
}

/** An OTLP/JSON attribute list as a plain object (string, int, double and bool values). */
export function attributesOf(list: KeyValue[] | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const { key, value } of list ?? []) {
    const v = value.stringValue ?? value.intValue ?? value.doubleValue ?? value.boolValue;
    out[key] = v;
  }
  return out;
}

/** The parts of an OTLP/JSON ExportTraceServiceRequest the tests read. */
interface TracesRequest {
  resourceSpans: Array<{
    resource?: { attributes?: KeyValue[] };
    scopeSpans?: Array<{
      spans?: Array<Omit<ReceivedSpan, 'attributes' | 'resource'> & { attributes?: KeyValue[] }>;
    }>;
  }>;
}

export class OtlpReceiver {
  readonly bodies = new Map<string, unknown[]>();
  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async start(): Promise<OtlpReceiver> {
    const bodies = new Map<string, unknown[]>();
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const list = bodies.get(req.url ?? '') ?? [];
        list.push(JSON.parse(text));
        bodies.set(req.url ?? '', list);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const receiver = new OtlpReceiver(server, (server.address() as AddressInfo).port);
    (receiver as { bodies: Map<string, unknown[]> }).bodies = bodies;
    return receiver;
  }

  /** Every span received so far, flattened from the export requests. */
  spans(): ReceivedSpan[] {
    const out: ReceivedSpan[] = [];
    for (const body of this.bodies.get('/v1/traces') ?? []) {
      for (const rs of (body as TracesRequest).resourceSpans) {
        const resource = attributesOf(rs.resource?.attributes);
        for (const ss of rs.scopeSpans ?? [])
          for (const span of ss.spans ?? [])
            out.push({ ...span, attributes: attributesOf(span.attributes), resource });
      }
    }
    return out;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
