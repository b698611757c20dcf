// A listening playground: the shared HttpServer with only the built-ins and the playground routes.
import { HttpServer } from '../http/server.js';
import type { PlaygroundFiles } from './files.js';
import { registerPlayground } from './routes.js';

/** Starts serving at `address` (`host:port`, port 0 picks a free one); close() the result to stop. */
export async function startPlayground(address: string, files?: PlaygroundFiles): Promise<HttpServer> {
  const server = new HttpServer({ config: { address, root_path: '/nekton' } });
  registerPlayground(server, files);
  await server.listen();
  return server;
}

/** The address a browser should open, e.g. `http://127.0.0.1:4195/`. */
export function playgroundUrl(server: HttpServer): string {
  const address = server.address();
  if (!address) throw new Error('the playground is not listening');
  const wildcard = address.address === '0.0.0.0' || address.address === '::';
  const host = wildcard ? 'localhost' : address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `${server.isTls ? 'https' : 'http'}://${host}:${address.port}/`;
}
