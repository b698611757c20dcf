// HTTP endpoints contributed by streams: with prefixing a component path `/post` of stream `foo`
// becomes `/foo/post`. Each stream remembers what it registered and removes it when it goes
// (nekton decision 6). Paths the server's own routes answer are refused: those routes always win,
// so such an endpoint could never be reached. With prefixing off several streams may claim one path:
// the newest serves it (last writer wins, spec §3.7) and, when it goes, the previous claimant that
// still holds the path serves it again instead of leaving it dead.
import { posix } from 'node:path';
import type { Logger } from 'pino';
import type { EndpointRegistrar } from '../engine/builder.js';
import type { EndpointHandler } from '../engine/context.js';
import { ConfigError } from '../engine/errors.js';
import type { RouteDoc } from '../engine/route_declaration.js';

/** The server side: HttpServer satisfies it. */
export interface EndpointHost {
  registerStreamEndpoint(path: string, description: string, handler: EndpointHandler, doc?: RouteDoc): void;
  unregisterStreamEndpoint(path: string): boolean;
  /** The server's own route (built-ins, streams API) answering `path`; it wins over any stream's. */
  ownRouteFor(path: string): string | undefined;
}

interface Claim {
  owner: StreamEndpoints;
  description: string;
  handler: EndpointHandler;
  doc?: RouteDoc;
}

export interface StreamEndpointTableOptions {
  host: EndpointHost | undefined;
  prefixWithId: boolean;
  logger?: Pick<Logger, 'warn' | 'info'>;
}

export class StreamEndpointTable {
  /** Path → its claimants, oldest first; the last one is the one being served. */
  private readonly claims = new Map<string, Claim[]>();

  constructor(private readonly options: StreamEndpointTableOptions) {}

  get prefixing(): boolean {
    return this.options.prefixWithId;
  }

  forStream(id: string): StreamEndpoints {
    return new StreamEndpoints(this, id);
  }

  /** Where a component path of stream `id` is served. */
  resolve(id: string, path: string): string {
    if (!this.options.prefixWithId) return path;
    const root = `/${id}`;
    // Clean like Go's path.Join: no `..` escape from the prefix, no trailing slash.
    const joined = posix.join(root, posix.join('/', path));
    return joined.length > 1 && joined.endsWith('/') ? joined.slice(0, -1) : joined;
  }

  /** The server's own route that would answer `path` instead of a stream, if any. */
  reservedBy(path: string): string | undefined {
    return this.options.host?.ownRouteFor(path);
  }

  claim(
    owner: StreamEndpoints,
    path: string,
    description: string,
    handler: EndpointHandler,
    doc?: RouteDoc,
  ): void {
    const { host, logger } = this.options;
    if (!host) throw new ConfigError(`no HTTP server is available for endpoint ${path}`);
    const route = this.reservedBy(path);
    if (route !== undefined) {
      const by = route === path ? '' : ` (the API route ${route} answers it)`;
      throw new ConfigError(`endpoint ${path} is reserved by the streams API${by}`);
    }
    const claims = this.claims.get(path) ?? [];
    const previous = claims.at(-1)?.owner;
    const kept = claims.filter((c) => c.owner !== owner);
    kept.push({ owner, description, handler, doc });
    this.claims.set(path, kept);
    host.registerStreamEndpoint(path, description, handler, doc);
    if (previous && previous !== owner) {
      logger?.warn(
        `endpoint ${path}: stream ${owner.id} takes it over from stream ${previous.id}, which serves it again when ${owner.id} releases it`,
      );
    }
  }

  release(owner: StreamEndpoints, paths: readonly string[]): void {
    for (const path of paths) {
      const claims = this.claims.get(path);
      const index = claims?.findIndex((c) => c.owner === owner) ?? -1;
      if (!claims || index < 0) continue;
      claims.splice(index, 1);
      const next = claims.at(-1);
      if (!next) {
        this.claims.delete(path);
        this.options.host?.unregisterStreamEndpoint(path);
      } else if (index === claims.length) {
        // The one being served went: hand the path back to the newest remaining claimant.
        this.options.host?.registerStreamEndpoint(path, next.description, next.handler, next.doc);
        this.options.logger?.info(`endpoint ${path}: served by stream ${next.owner.id} again`);
      }
    }
  }
}

/** The registrar handed to one stream instance's components. */
export class StreamEndpoints implements EndpointRegistrar {
  private readonly paths: string[] = [];

  constructor(
    private readonly table: StreamEndpointTable,
    readonly id: string,
  ) {}

  register(path: string, description: string, handler: EndpointHandler, doc?: RouteDoc): void {
    this.registerExact(this.table.resolve(this.id, path), description, handler, doc);
  }

  /** Registers a path as given (the manager's own `/<id>/ready`). */
  registerExact(path: string, description: string, handler: EndpointHandler, doc?: RouteDoc): void {
    this.table.claim(this, path, description, handler, doc);
    if (!this.paths.includes(path)) this.paths.push(path);
  }

  release(): void {
    this.table.release(this, this.paths);
    this.paths.length = 0;
  }
}
