import { randomBytes } from 'node:crypto';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { freePort, NATS_URL, waitFor } from '../../helpers/kit.js';
import { PrivateServer } from '../../helpers/private_server.js';

export { NATS_URL };

/** A name no other test run uses: subjects, streams, durables and buckets. */
export function unique(prefix: string): string {
  return `${prefix}_${randomBytes(4).toString('hex')}`;
}

export { Capture, type RunningStream, startStream } from '../../helpers/capture_stream.js';

/** A plain client connection for setting up and checking what the components did. */
export function client(url = NATS_URL): Promise<NatsConnection> {
  return connect({ servers: url });
}

/** A nats-server of the test's own, with JetStream storing in a temporary directory. */
export class PrivateNatsServer extends PrivateServer {
  private constructor(port: number) {
    super(port, 'nats');
  }

  static async start(): Promise<PrivateNatsServer> {
    const server = new PrivateNatsServer(await freePort());
    await server.restart();
    return server;
  }

  get url(): string {
    return `nats://127.0.0.1:${this.port}`;
  }

  protected command(): [string, string[]] {
    return ['/usr/sbin/nats-server', ['-a', '127.0.0.1', '-p', String(this.port), '-js', '-sd', this.dir]];
  }

  protected waitReady(): Promise<unknown> {
    return waitFor(
      async () => {
        const nc = await connect({ servers: this.url, reconnect: false });
        await nc.close();
        return true;
      },
      { message: `nats-server on port ${this.port}` },
    );
  }
}
