// Drives a real HttpServer over loopback: start on port 0, plain node:http(s) requests, always closed.
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { HttpServer, type HttpServerOptions } from '../../src/http/server.js';

export interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface RequestOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** For TLS servers with a self-signed certificate. */
  ca?: string | Buffer;
}

export async function startServer(options: HttpServerOptions = {}): Promise<HttpServer> {
  const server = new HttpServer({ ...options, config: { address: '127.0.0.1:0', ...options.config } });
  await server.listen();
  return server;
}

export function send(server: HttpServer, path: string, options: RequestOptions = {}): Promise<Reply> {
  const tls = server.isTls;
  const request = tls ? httpsRequest : httpRequest;
  return new Promise<Reply>((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: server.port,
        path,
        method: options.method ?? 'GET',
        headers: options.headers,
        ca: options.ca,
        servername: tls ? 'localhost' : undefined,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString(),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

export function basicAuthHeader(username: string, password: string): string {
  return `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
}
