// HTTP endpoints contributed by streams: with prefixing a component path `/post` of stream `foo`
// becomes `/foo/post`. Each stream remembers what it registered and removes it when it goes
// (nekton decision 6), but never a path that another stream has since taken over.
import { posix } from 'node:path';
import type { EndpointRegistrar } from '../engine/builder.js';
import type { EndpointHandler } from '../engine/context.js';
import { ConfigError } from '../engine/errors.js';

/** The server side: HttpServer satisfies it. */
export interface EndpointHost {
  register(path: string, description: string, handler: EndpointHandler): void;
  unregister(path: string): boolean;
}

export class StreamEndpointTable {
  private readonly owners = new Map<string, StreamEndpoints>();

  constructor(
    private readonly host: EndpointHost | undefined,
    private readonly prefixWithId: boolean,
    /** Paths owned by the server or the manager (e.g. `/ready`) that a stream may not replace. */
    private readonly reserved: ReadonlySet<string>,
  ) {}

  get prefixing(): boolean {
    return this.prefixWithId;
  }

  forStream(id: string): StreamEndpoints {
    return new StreamEndpoints(this, id);
  }

  /** Where a component path of stream `id` is served. */
  resolve(id: string, path: string): string {
    if (!this.prefixWithId) return path;
    const root = `/${id}`;
    // Clean like Go's path.Join: no `..` escape from the prefix, no trailing slash.
    const joined = posix.join(root, posix.join('/', path));
    return joined.length > 1 && joined.endsWith('/') ? joined.slice(0, -1) : joined;
  }

  claim(owner: StreamEndpoints, path: string, description: string, handler: EndpointHandler): void {
    if (!this.host) throw new ConfigError(`no HTTP server is available for endpoint ${path}`);
    if (this.reserved.has(path)) throw new ConfigError(`endpoint ${path} is reserved by the streams API`);
    this.host.register(path, description, handler);
    this.owners.set(path, owner);
  }

  release(owner: StreamEndpoints, paths: readonly string[]): void {
    for (const path of paths) {
      if (this.owners.get(path) !== owner) continue;
      this.owners.delete(path);
      this.host?.unregister(path);
    }
  }
}

/** The registrar handed to one stream instance's components. */
export class StreamEndpoints implements EndpointRegistrar {
  private readonly paths: string[] = [];

  constructor(
    private readonly table: StreamEndpointTable,
    private readonly id: string,
  ) {}

  register(path: string, description: string, handler: EndpointHandler): void {
    this.registerExact(this.table.resolve(this.id, path), description, handler);
  }

  /** Registers a path as given (the manager's own `/<id>/ready`). */
  registerExact(path: string, description: string, handler: EndpointHandler): void {
    this.table.claim(this, path, description, handler);
    if (!this.paths.includes(path)) this.paths.push(path);
  }

  release(): void {
    this.table.release(this, this.paths);
    this.paths.length = 0;
  }
}
