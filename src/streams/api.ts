// Registers the streams-mode endpoints on the server: `/ready` always; the CRUD API for streams
// and resources unless disabled (`--no-api`).
import type { EndpointHandler } from '../engine/context.js';
import type { StreamsApiContext } from './api_context.js';
import { aggregatedReadyHandler } from './api_ready.js';
import { resourceHandler, resourcesHandler } from './api_resources.js';
import { streamHandler, streamStatsHandler, streamsHandler } from './api_streams.js';

export interface EndpointRegistry {
  register(path: string, description: string, handler: EndpointHandler): void;
}

export function registerStreamsApi(
  server: EndpointRegistry,
  ctx: StreamsApiContext,
  options: { api: boolean },
): void {
  server.register(
    '/ready',
    'Returns 200 when every running stream is connected, otherwise 503 naming the streams that are not.',
    aggregatedReadyHandler(ctx.manager, ctx.persistence?.store),
  );
  if (!options.api) return;
  server.register(
    '/streams',
    'GET: list all streams. POST: replace the whole set of streams.',
    streamsHandler(ctx),
  );
  server.register(
    '/streams/{id}',
    'Create (POST), read (GET), replace (PUT), merge-patch (PATCH) or delete (DELETE) one stream.',
    streamHandler(ctx),
  );
  server.register('/streams/{id}/stats', 'GET: the metrics of one stream.', streamStatsHandler(ctx));
  server.register('/resources', 'GET: every shared resource, by type and name.', resourcesHandler(ctx));
  server.register(
    '/resources/{type}/{id}',
    'Create or replace (POST), read (GET) or remove (DELETE) a shared resource.',
    resourceHandler(ctx),
  );
}
