// A private DynamoDB or Kinesis emulator (dynalite, kinesalite: npm dev dependencies, in memory)
// run in this process on a fixed free port, so it can be killed and started again at the same
// address. A restart loses what it stored, as a new server would.
import { Server } from 'node:http';
import dynalite from 'dynalite';
import kinesalite from 'kinesalite';
import { freePort } from '../../helpers/kit.js';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

export class PrivateEmulator {
  private server: Server | null = null;

  private constructor(
    readonly port: number,
    private readonly make: () => Server,
  ) {}

  static async dynamodb(): Promise<PrivateEmulator> {
    const emulator = new PrivateEmulator(await freePort(), () =>
      dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 }),
    );
    await emulator.start();
    return emulator;
  }

  static async kinesis(): Promise<PrivateEmulator> {
    const emulator = new PrivateEmulator(await freePort(), () =>
      kinesalite({ createStreamMs: 0, deleteStreamMs: 0, updateStreamMs: 0, shardLimit: 100 }),
    );
    await emulator.start();
    return emulator;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** The session fields pointing at this emulator (any credentials are accepted). */
  session(indent = '    '): string {
    return [
      `endpoint: ${this.url}`,
      'region: us-east-1',
      'credentials:',
      '  id: TESTID',
      '  secret: TESTSECRET',
    ]
      .map((line) => indent + line)
      .join('\n');
  }

  async start(): Promise<void> {
    if (this.server) return;
    const server = this.make();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.server = server;
  }

  /** Stops listening and drops every open connection, as a crash would. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    // The plain HTTP close: dynalite's own close also shuts its store down, after which its late
    // internal callbacks throw "Database is closed" into the test process.
    const closed = new Promise<void>((resolve) => Server.prototype.close.call(server, () => resolve()));
    server.closeAllConnections();
    await closed;
  }
}
