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
