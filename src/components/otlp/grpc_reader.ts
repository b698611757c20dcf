// The otlp_grpc input's reader: a gRPC server with the OTLP Trace, Logs and Metrics services.
import { readFile } from 'node:fs/promises';
import type * as Grpc from '@grpc/grpc-js';
import type { ConfigOf } from '../../config/spec.js';
import type { InputReader, Transaction } from '../../engine/component.js';
import type { BuildContext } from '../../engine/context.js';
import { parseListenAddress } from '../../listener/address.js';
import { GRPC_PATHS, SIGNALS, type Signal } from './codec.js';
import type { otlpGrpcInputFields } from './fields.js';
import { grpcNow } from './grpc_module.js';
import { OtlpReceiver } from './receiver.js';

type Config = ConfigOf<typeof otlpGrpcInputFields>;

const EMPTY = Buffer.alloc(0);
const raw = (b: Buffer) => b;

export class OtlpGrpcReader implements InputReader {
  private readonly receiver: OtlpReceiver;
  private server: Grpc.Server | null = null;
  private port = 0;

  constructor(
    private readonly config: Config,
    private readonly ctx: BuildContext,
  ) {
    this.receiver = new OtlpReceiver(config.encoding);
  }

  boundPort(): number {
    return this.port;
  }

  async connect(): Promise<void> {
    if (this.server) return;
    const server = new (grpcNow().Server)({
      'grpc.max_receive_message_length': this.config.max_recv_msg_size,
    });
    for (const signal of SIGNALS) {
      const definition: Grpc.ServiceDefinition = {
        Export: {
          path: GRPC_PATHS[signal],
          requestStream: false,
          responseStream: false,
          requestSerialize: raw,
          requestDeserialize: raw,
          responseSerialize: raw,
          responseDeserialize: raw,
        },
      };
      server.addService(definition, {
        Export: (call: Grpc.ServerUnaryCall<Buffer, Buffer>, callback: Grpc.sendUnaryData<Buffer>) => {
          this.export(signal, call, callback).catch((err: unknown) =>
            callback({ code: grpcNow().status.INTERNAL, details: (err as Error).message }),
          );
        },
      });
    }
    const { tls, address } = this.config;
    const credentials = tls.enabled
      ? grpcNow().ServerCredentials.createSsl(null, [
          { cert_chain: await readFile(tls.cert_file), private_key: await readFile(tls.key_file) },
        ])
      : grpcNow().ServerCredentials.createInsecure();
    const { host, port } = parseListenAddress(address);
    const target = `${host && host !== '0.0.0.0' ? (host.includes(':') ? `[${host}]` : host) : '0.0.0.0'}:${port}`;
    this.port = await new Promise<number>((resolve, reject) =>
      server.bindAsync(target, credentials, (err, bound) =>
        err ? reject(new Error(`otlp_grpc input: listen on ${address}: ${err.message}`)) : resolve(bound),
      ),
    );
    this.server = server;
  }

  read(): Promise<Transaction | null> {
    return this.receiver.read();
  }

  readBuffered(): Transaction | undefined {
    return this.receiver.readBuffered();
  }

  async close(): Promise<void> {
    this.receiver.close();
    const server = this.server;
    this.server = null;
    if (!server) return;
    await new Promise<void>((resolve) => {
      const force = setTimeout(() => {
        server.forceShutdown();
        resolve();
      }, 1_000);
      force.unref();
      server.tryShutdown(() => {
        clearTimeout(force);
        resolve();
      });
    });
  }

  private async export(
    signal: Signal,
    call: Grpc.ServerUnaryCall<Buffer, Buffer>,
    callback: Grpc.sendUnaryData<Buffer>,
  ): Promise<void> {
    const token = this.config.auth_token;
    if (token && call.metadata.get('authorization')[0] !== `Bearer ${token}`) {
      return callback({ code: grpcNow().status.UNAUTHENTICATED, details: 'missing or wrong bearer token' });
    }
    if (this.config.rate_limit) {
      const wait = await this.ctx.resources.useRateLimit(this.config.rate_limit, (rl) => rl.access());
      if (wait > 0) return callback({ code: grpcNow().status.RESOURCE_EXHAUSTED, details: 'rate limited' });
    }
    let outcome: Promise<Error | null>;
    try {
      outcome = this.receiver.submit(signal, call.request, false, 0);
    } catch (err) {
      return callback({
        code: grpcNow().status.INVALID_ARGUMENT,
        details: `malformed request: ${(err as Error).message}`,
      });
    }
    const err = await outcome;
    if (err)
      return callback({ code: grpcNow().status.UNAVAILABLE, details: `delivery failed: ${err.message}` });
    callback(null, EMPTY);
  }
}
