// A local OTLP/gRPC receiver for tests: the collector's trace and metrics Export methods, keeping
// each request's protobuf bytes undecoded (tests look for the names the spans and series carry:
// protobuf stores strings as they are).
import { Server, ServerCredentials, type ServerUnaryCall, type sendUnaryData } from '@grpc/grpc-js';

const SERVICES = {
  traces: '/opentelemetry.proto.collector.trace.v1.TraceService/Export',
  metrics: '/opentelemetry.proto.collector.metrics.v1.MetricsService/Export',
} as const;

export class OtlpGrpcReceiver {
  readonly requests: Record<keyof typeof SERVICES, Buffer[]> = { traces: [], metrics: [] };
  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async start(): Promise<OtlpGrpcReceiver> {
    const server = new Server();
    const requests: Record<keyof typeof SERVICES, Buffer[]> = { traces: [], metrics: [] };
    for (const [signal, path] of Object.entries(SERVICES) as Array<[keyof typeof SERVICES, string]>) {
      server.addService(
        {
          Export: {
            path,
            requestStream: false,
            responseStream: false,
            requestSerialize: (b: Buffer) => b,
            requestDeserialize: (b: Buffer) => b,
            // An empty Export*ServiceResponse: no partial_success.
            responseSerialize: () => Buffer.alloc(0),
            responseDeserialize: (b: Buffer) => b,
          },
        },
        {
          Export: (call: ServerUnaryCall<Buffer, Buffer>, callback: sendUnaryData<Buffer>) => {
            requests[signal].push(call.request);
            callback(null, Buffer.alloc(0));
          },
        },
      );
    }
    const port = await new Promise<number>((resolve, reject) =>
      server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (err, p) =>
        err ? reject(err) : resolve(p),
      ),
    );
    const receiver = new OtlpGrpcReceiver(server, port);
    (receiver as { requests: typeof requests }).requests = requests;
    return receiver;
  }

  /** Whether any request of `signal` holds `text` (a span name, a metric name, an attribute). */
  received(signal: keyof typeof SERVICES, text: string): boolean {
    return this.requests[signal].some((b) => b.includes(Buffer.from(text)));
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.tryShutdown(() => resolve()));
  }
}
