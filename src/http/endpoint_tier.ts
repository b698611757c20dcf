// One layer of the server's routing: registered paths with their descriptions and a router holding
// both mounts of each (`path` and `root_path + path`). The server keeps two, its own and the streams'.
import type { EndpointHandler } from '../engine/context.js';
import type { RouteDoc } from '../engine/route_declaration.js';
import { type RouteMatch, Router } from './router.js';

export interface Endpoint {
  path: string;
  description: string;
  handler: EndpointHandler;
  /** What the OpenAPI document says of it; absent for a component's own endpoint. */
  doc?: RouteDoc;
}

export class EndpointTier {
  private readonly byPath = new Map<string, Endpoint>();
  private readonly router = new Router<Endpoint>();

  constructor(private readonly rootPath: string) {}

  /** Mounts the endpoint at both mounts, replacing an earlier registration of its path. */
  add(endpoint: Endpoint): void {
    this.byPath.set(endpoint.path, endpoint);
    for (const mounted of this.mounts(endpoint.path)) this.router.add(mounted, endpoint);
  }

  remove(path: string): boolean {
    if (!this.byPath.delete(path)) return false;
    for (const mounted of this.mounts(path)) this.router.remove(mounted);
    return true;
  }

  match(path: string): RouteMatch<Endpoint> | undefined {
    return this.router.match(path);
  }

  paths(): string[] {
    return [...this.byPath.keys()];
  }

  get(path: string): Endpoint | undefined {
    return this.byPath.get(path);
  }

  private mounts(path: string): string[] {
    const rooted = this.rootPath + path;
    return rooted === path ? [path] : [path, rooted];
  }
}
