// REST handlers for shared resources: `POST /resources/{type}/{id}` creates or replaces (§3.6);
// nekton decision 4 adds `GET /resources`, `GET /resources/{type}`, `GET` and `DELETE /resources/{type}/{id}`.
import type { ServerResponse } from 'node:http';
import { readComponentBodySliced } from '../config/api_body_sliced.js';
import type { EnvLookup } from '../config/env_interpolation.js';
import { scrubComponent } from '../config/scrub.js';
import type { EndpointHandler } from '../engine/context.js';
import { errorMessage } from '../engine/errors.js';
import { RESOURCE_KINDS, type ResourceKind } from '../engine/resources.js';
import { TimeSlicer } from '../engine/time_slicer.js';
import { sendError, sendJson } from '../listener/respond.js';
import type { StreamsApiContext } from './api_context.js';
import { LintFailure, StreamBuildError } from './errors.js';
import {
  asBadRequest,
  isChilled,
  queryOf,
  readText,
  sendFailure,
  sendOk,
  sendVerbNotSupported,
} from './request.js';
import { buildResource } from './resource_builder.js';
import { scrubbedError } from './scrubbed_error.js';
import { assertValidId } from './stream_id.js';

const BAD_TYPE = 'Var `type` must be set to one of `cache`, `input`, `output`, `processor` or `rate_limit`';

function isResourceKind(type: string): type is ResourceKind {
  return (RESOURCE_KINDS as readonly string[]).includes(type);
}

/** `/resources`: every resource as `{type: {id: config}}`. */
export function resourcesHandler(ctx: StreamsApiContext): EndpointHandler {
  return (req, res) => {
    if (req.method !== 'GET') return sendVerbNotSupported(res, req.method);
    const out: Record<string, Record<string, unknown>> = {};
    for (const kind of RESOURCE_KINDS) {
      out[kind] = {};
      for (const name of ctx.resources.names(kind)) out[kind][name] = configView(ctx, kind, name);
    }
    sendJson(res, 200, out);
  };
}

/** `/resources/{type}`: the resources of one type as `{id: config}`. */
export function resourcesOfTypeHandler(ctx: StreamsApiContext): EndpointHandler {
  return (req, res, params) => {
    if (req.method !== 'GET') return sendVerbNotSupported(res, req.method);
    const type = params.type ?? '';
    if (!isResourceKind(type)) return sendError(res, 400, BAD_TYPE);
    const out: Record<string, unknown> = {};
    for (const name of [...ctx.resources.names(type)].sort()) out[name] = configView(ctx, type, name);
    sendJson(res, 200, out);
  };
}

/** `/resources/{type}/{id}`. */
export function resourceHandler(ctx: StreamsApiContext): EndpointHandler {
  return async (req, res, params) => {
    try {
      const method = req.method ?? '';
      if (method !== 'POST' && method !== 'GET' && method !== 'DELETE')
        return sendVerbNotSupported(res, method);
      const type = params.type ?? '';
      const id = params.id ?? '';
      if (!isResourceKind(type)) return sendError(res, 400, BAD_TYPE);
      if (method === 'GET') {
        if (!ctx.resources.has(type, id)) return sendError(res, 404, 'Resource not found');
        return sendJson(res, 200, configView(ctx, type, id));
      }
      if (method === 'DELETE')
        return await deleteResource(ctx, res, type, id, queryOf(req).get('force') === 'true');
      assertValidId(id, 'resource');
      const chilled = isChilled(queryOf(req));
      const text = await readText(req, ctx.bodyLimitBytes);
      await installResource(ctx, type, id, text, { chilled, env: ctx.env });
      sendOk(res);
    } catch (err) {
      sendFailure(res, scrubbedError(err));
    }
  };
}

/** Checks, builds and installs a resource body; the stream store takes it before it counts. */
export async function installResource(
  ctx: StreamsApiContext,
  kind: ResourceKind,
  id: string,
  text: string,
  { chilled, env }: { chilled: boolean; env: EnvLookup | undefined },
): Promise<void> {
  let result: Awaited<ReturnType<typeof readComponentBodySliced>>;
  try {
    const options = {
      provider: ctx.provider,
      env,
      chilled,
      bloblang: ctx.bloblang,
      redpandaSection: ctx.redpandaSection,
    };
    result = await ctx.bodyQueue.run('', () =>
      readComponentBodySliced(text, kind, options, new TimeSlicer()),
    );
  } catch (err) {
    throw asBadRequest(err);
  }
  if (!result.ok) throw new LintFailure(result.lints);
  const cc = result.config;
  if ((kind === 'input' || kind === 'output') && cc.label !== '' && cc.label !== id) {
    throw new StreamBuildError(`label '${cc.label}' must be empty or match the resource name '${id}'`);
  }
  let component: { close(): Promise<void> };
  try {
    component = await buildResource(ctx.resourceBuilder, kind, {
      ...cc,
      label: id,
      path: `root.${kind}_resources`,
    });
  } catch (err) {
    throw new StreamBuildError(errorMessage(err));
  }
  const posted = result.posted === undefined ? result.raw : result.posted;
  try {
    await ctx.persistence?.putResource(kind, id, {
      config: posted,
      interpolate: result.posted !== undefined,
    });
  } catch (err) {
    await component.close().catch(() => undefined);
    throw err;
  }
  // Kept as posted (`${VAR}` unexpanded): the kept config is only ever read back.
  await ctx.resources.set(kind, id, component, posted);
}

async function deleteResource(
  ctx: StreamsApiContext,
  res: ServerResponse,
  kind: ResourceKind,
  id: string,
  force: boolean,
): Promise<void> {
  if (!ctx.resources.has(kind, id)) return sendError(res, 404, 'Resource not found');
  const users = ctx.manager.usersOf(kind, id);
  if (users.length > 0 && !force) {
    return sendJson(res, 409, {
      error: `${kind} resource '${id}' is used by streams: ${users.join(', ')} (add ?force=true to remove it anyway)`,
      streams: users,
    });
  }
  await ctx.persistence?.removeResource(kind, id);
  await ctx.resources.remove(kind, id);
  sendOk(res);
}

/** A stored resource config as written, with secret fields scrubbed. */
function configView(ctx: StreamsApiContext, kind: ResourceKind, name: string): unknown {
  return scrubComponent(kind, ctx.resources.rawConfig(kind, name) ?? null, ctx.provider);
}
