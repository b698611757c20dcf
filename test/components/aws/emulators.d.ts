// The little of s3rver (an S3 emulator on npm that ships no types) that the tests use.
declare module 's3rver' {
  interface S3rverOptions {
    port?: number;
    address?: string;
    silent?: boolean;
    directory?: string;
  }
  export default class S3rver {
    constructor(options: S3rverOptions);
    run(): Promise<{ address: string; port: number }>;
    close(): Promise<void>;
    /** The listening server, once run() resolved. */
    httpServer?: import('node:http').Server;
  }
}

// dynalite and kinesalite (DynamoDB and Kinesis emulators on npm, no types): each returns an
// http.Server that is not yet listening.
declare module 'dynalite' {
  interface DynaliteOptions {
    createTableMs?: number;
    deleteTableMs?: number;
    updateTableMs?: number;
  }
  export default function dynalite(options?: DynaliteOptions): import('node:http').Server;
}

declare module 'kinesalite' {
  interface KinesaliteOptions {
    createStreamMs?: number;
    deleteStreamMs?: number;
    updateStreamMs?: number;
    shardLimit?: number;
  }
  export default function kinesalite(options?: KinesaliteOptions): import('node:http').Server;
}
