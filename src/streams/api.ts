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
import type { FleetCoordinator } from './fleet/coordinator.js';
import { fleetReadyRoute, fleetStreamRoute, fleetStreamsRoute } from './fleet/fleet_routes.js';

export interface EndpointRegistry {
  register(path: string, description: string, handler: EndpointHandler, doc?: RouteDoc): void;
}

export function registerStreamsApi(
  server: EndpointRegistry,
  ctx: StreamsApiContext,
  options: { api: boolean; fleet?: FleetCoordinator },
): void {
  const register = server.register.bind(server);
  const { fleet } = options;
  // In a fleet each stream route first finds the node that runs the stream (fleet/fleet_routes.ts).
  const one = (handler: EndpointHandler, item: boolean) =>
    fleet ? fleetStreamRoute(fleet, ctx, handler, item) : handler;
  const ready = aggregatedReadyHandler(ctx.manager, ctx.persistence?.store);
  registerDeclared(register, READY_ROUTE, fleet ? fleetReadyRoute(fleet, ctx, ready) : ready);
  if (!options.api) return;
  const streams = streamsHandler(ctx);
  registerDeclared(register, STREAMS_ROUTE, fleet ? fleetStreamsRoute(fleet, ctx, streams) : streams);
  registerDeclared(register, STREAM_ROUTE, one(streamHandler(ctx), true));
  registerDeclared(register, STREAM_STATS_ROUTE, one(streamStatsHandler(ctx), false));
  registerDeclared(register, STREAM_PAUSE_ROUTE, one(streamLifecycleHandler(ctx, 'pause'), false));
  registerDeclared(register, STREAM_RESUME_ROUTE, one(streamLifecycleHandler(ctx, 'resume'), false));
  registerDeclared(register, RESOURCES_ROUTE, resourcesHandler(ctx));
  registerDeclared(register, RESOURCES_OF_TYPE_ROUTE, resourcesOfTypeHandler(ctx));
  registerDeclared(register, RESOURCE_ROUTE, resourceHandler(ctx));
  registerConsole(register, ctx);
}
