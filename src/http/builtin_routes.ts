// Declarations of the routes every server registers (see src/engine/route_declaration.ts).
import { jsonResponse, type RouteDeclaration, textResponse } from '../engine/route_declaration.js';

const ANY_METHOD = 'Answers every method alike.';

export const PING_ROUTE: RouteDeclaration = {
  path: '/ping',
  description: 'Ping me.',
  tag: 'health',
  operations: {
    get: {
      summary: 'Liveness: answers `pong`.',
      description: ANY_METHOD,
      responses: { 200: textResponse('`pong`, no newline.', { const: 'pong' }) },
    },
  },
};

export const VERSION_ROUTE: RouteDeclaration = {
  path: '/version',
  description: 'Returns the service version.',
  tag: 'health',
  operations: {
    get: {
      summary: 'The version and build date.',
      description: `${ANY_METHOD} The body is JSON but sent without a JSON content type, as the reference does.`,
      responses: {
        200: {
          description: '`{"version":"<ver>", "built":"<date>"}`',
          contentType: 'text/plain',
          schema: { type: 'string' },
        },
      },
    },
  },
};

export const ENDPOINTS_ROUTE: RouteDeclaration = {
  path: '/endpoints',
  description: 'Returns this map of endpoints.',
  tag: 'health',
  operations: {
    get: {
      summary: 'Every registered path with its description.',
      description: ANY_METHOD,
      responses: {
        200: jsonResponse('Path → description.', {
          type: 'object',
          additionalProperties: { type: 'string' },
        }),
      },
    },
  },
};

export const OPENAPI_ROUTE: RouteDeclaration = {
  path: '/openapi.json',
  description: 'Returns the OpenAPI 3.1 document of the routes registered now.',
  tag: 'health',
  operations: {
    get: {
      summary: 'This document.',
      description: `${ANY_METHOD} It lists the routes registered when it is asked for, streams' endpoints included.`,
      responses: { 200: jsonResponse('An OpenAPI 3.1 document.', { type: 'object' }) },
    },
  },
};

function metricsRoute(path: string): RouteDeclaration {
  return {
    path,
    description: 'Returns service metrics.',
    tag: 'metrics',
    operations: {
      get: {
        summary: 'The metrics of the process, in the configured exporter format.',
        description: `${ANY_METHOD} Registered only when the metrics exporter serves HTTP (\`prometheus\`, \`json_api\`).`,
        responses: {
          200: {
            description: 'Prometheus text exposition, or a JSON object for `json_api`.',
            contentType: 'text/plain',
            schema: { type: 'string' },
          },
        },
      },
    },
  };
}

export const STATS_ROUTE = metricsRoute('/stats');
export const METRICS_ROUTE = metricsRoute('/metrics');
