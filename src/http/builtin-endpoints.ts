// The endpoints every server registers: /ping, /version, /endpoints and, with an exporter, /metrics + /stats.
import type { EndpointHandler } from '../engine/context.js';
import { sendJson, sendText } from '../listener/respond.js';
import type { BuildInfo } from './version.js';

export type RegisterEndpoint = (path: string, description: string, handler: EndpointHandler) => void;

export function registerBuiltinEndpoints(
  register: RegisterEndpoint,
  build: BuildInfo,
  listEndpoints: () => Record<string, string>,
  metricsHandler: EndpointHandler | undefined,
): void {
  register('/ping', 'Ping me.', (_req, res) => sendText(res, 200, 'pong'));

  // Written by hand, not JSON.stringify: clients match the reference's exact bytes, single space included.
  const versionBody = `{"version":"${build.version}", "built":"${build.built}"}`;
  register('/version', 'Returns the service version.', (_req, res) => {
    res.statusCode = 200;
    res.end(versionBody);
  });

  register('/endpoints', 'Returns this map of endpoints.', (_req, res) =>
    sendJson(res, 200, listEndpoints()),
  );

  if (metricsHandler) {
    register('/stats', 'Returns service metrics.', metricsHandler);
    register('/metrics', 'Returns service metrics.', metricsHandler);
  }
}
