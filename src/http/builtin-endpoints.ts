// The endpoints every server registers: /ping, /version, /endpoints, /openapi.json and, with an
// exporter, /metrics + /stats. Each is declared in builtin_routes.ts.
import type { EndpointHandler } from '../engine/context.js';
import { type RegisterRoute, registerDeclared } from '../engine/route_declaration.js';
import { sendJson, sendText } from '../listener/respond.js';
import {
  ENDPOINTS_ROUTE,
  METRICS_ROUTE,
  OPENAPI_ROUTE,
  PING_ROUTE,
  STATS_ROUTE,
  VERSION_ROUTE,
} from './builtin_routes.js';
import type { BuildInfo } from './version.js';

export type RegisterEndpoint = RegisterRoute;

export interface BuiltinSources {
  listEndpoints: () => Record<string, string>;
  openApi: () => Record<string, unknown>;
  metricsHandler: EndpointHandler | undefined;
}

export function registerBuiltinEndpoints(
  register: RegisterEndpoint,
  build: BuildInfo,
  sources: BuiltinSources,
): void {
  registerDeclared(register, PING_ROUTE, (_req, res) => sendText(res, 200, 'pong'));

  // Written by hand, not JSON.stringify: clients match the reference's exact bytes, single space included.
  const versionBody = `{"version":"${build.version}", "built":"${build.built}"}`;
  registerDeclared(register, VERSION_ROUTE, (_req, res) => {
    res.statusCode = 200;
    res.end(versionBody);
  });

  registerDeclared(register, ENDPOINTS_ROUTE, (_req, res) => sendJson(res, 200, sources.listEndpoints()));
  registerDeclared(register, OPENAPI_ROUTE, (_req, res) => sendJson(res, 200, sources.openApi()));

  if (sources.metricsHandler) {
    registerDeclared(register, STATS_ROUTE, sources.metricsHandler);
    registerDeclared(register, METRICS_ROUTE, sources.metricsHandler);
  }
}
