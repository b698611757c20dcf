// Registers the streams-mode endpoints on the server: `/ready` always; the CRUD API for streams
// and resources unless disabled (`--no-api`). Each route is registered with its declaration
// (api_routes.ts), which the OpenAPI document reads.
import type { EndpointHandler } from '../engine/context.js';
import { type RouteDoc, registerDeclared } from '../engine/route_declaration.js';
import type { StreamsApiContext } from './api_context.js';
import { streamLifecycleHandler } from './api_lifecycle.js';
import { aggregatedReadyHandler } from './api_ready.js';
import { resourceHandler, resourcesHandler, resourcesOfTypeHandler } from './api_resources.js';
import {
  READY_ROUTE,
  RESOURCE_ROUTE,
  RESOURCES_OF_TYPE_ROUTE,
  RESOURCES_ROUTE,
  STREAM_PAUSE_ROUTE,
  STREAM_RESUME_ROUTE,
  STREAM_ROUTE,
  STREAM_STATS_ROUTE,
  STREAMS_ROUTE,
} from './api_routes.js';
import { streamHandler, streamStatsHandler, streamsHandler } from './api_streams.js';
import { registerConsole } from './console_routes.js';

export interface EndpointRegistry {
  register(path: string, description: string, handler: EndpointHandler, doc?: RouteDoc): void;
}

export function registerStreamsApi(
  server: EndpointRegistry,
  ctx: StreamsApiContext,
  options: { api: boolean },
): void {
  const register = server.register.bind(server);
  registerDeclared(register, READY_ROUTE, aggregatedReadyHandler(ctx.manager, ctx.persistence?.store));
  if (!options.api) return;
  registerDeclared(register, STREAMS_ROUTE, streamsHandler(ctx));
  registerDeclared(register, STREAM_ROUTE, streamHandler(ctx));
  registerDeclared(register, STREAM_STATS_ROUTE, streamStatsHandler(ctx));
  registerDeclared(register, STREAM_PAUSE_ROUTE, streamLifecycleHandler(ctx, 'pause'));
  registerDeclared(register, STREAM_RESUME_ROUTE, streamLifecycleHandler(ctx, 'resume'));
  registerDeclared(register, RESOURCES_ROUTE, resourcesHandler(ctx));
  registerDeclared(register, RESOURCES_OF_TYPE_ROUTE, resourcesOfTypeHandler(ctx));
  registerDeclared(register, RESOURCE_ROUTE, resourceHandler(ctx));
  registerConsole(register, ctx);
}
