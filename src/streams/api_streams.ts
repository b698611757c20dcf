// REST handlers for `/streams`, `/streams/{id}` and `/streams/{id}/stats` (spec §3.2–§3.5 with
// the nekton decisions: `linting_errors`, safe updates, PATCH as a JSON merge patch).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { stringify } from 'yaml';
import { checkStream, parseBody } from '../config/api_body.js';
import { readStreamBodySliced, readStreamsBodySliced } from '../config/api_body_sliced.js';
import { mergePatch } from '../config/merge_patch.js';
import { isPlainObject } from '../config/normalise.js';
import { parseYaml, yamlToValue } from '../config/yaml_document.js';
import type { EndpointHandler } from '../engine/context.js';
import { TimeSlicer } from '../engine/time_slicer.js';
import { sendError, sendJson } from '../listener/respond.js';
import type { StreamsApiContext } from './api_context.js';
import { BadRequestError, LintFailure, StreamNotFoundError } from './errors.js';
import type { StreamDefinition } from './manager.js';
import {
  asBadRequest,
  isChilled,
  queryOf,
  readText,
  sendFailure,
  sendOk,
  sendVerbNotSupported,
  stopTimeoutOf,
} from './request.js';
import { scrubbedError } from './scrubbed_error.js';
import { assertValidId } from './stream_id.js';
import { type StreamSummary, streamDetail, streamSummary } from './stream_view.js';

/** Runs a handler body and answers whatever it throws with the mapped status. */
function guarded(
  work: (req: IncomingMessage, res: ServerResponse, params: Record<string, string>) => Promise<void>,
): EndpointHandler {
  return (req, res, params) => work(req, res, params).catch((err) => sendFailure(res, scrubbedError(err)));
}

/** `/streams`: GET lists, POST replaces the whole set. */
export function streamsHandler(ctx: StreamsApiContext): EndpointHandler {
  return guarded(async (req, res) => {
    if (req.method === 'GET') {
      const out: Record<string, StreamSummary> = {};
      for (const entry of ctx.manager.entries()) out[entry.id] = streamSummary(entry);
      return sendJson(res, 200, out);
    }
    if (req.method !== 'POST') return sendError(res, 400, 'Error: method not supported');
    const text = await readText(req, ctx.bodyLimitBytes);
    const wanted = await parseStreamsBody(ctx, text, isChilled(queryOf(req)));
    const before = new Set(ctx.manager.entries().map((entry) => entry.id));
    const failures = await ctx.manager.replaceAll(wanted);
    if (failures.length > 0) return sendError(res, 400, `Error: ${failures.join('\n')}`);
    for (const id of before) if (!wanted.has(id)) logChange(ctx, id, 'deleted');
    for (const id of wanted.keys()) logChange(ctx, id, before.has(id) ? 'updated' : 'created');
    sendOk(res);
  });
}

async function parseStreamsBody(
  ctx: StreamsApiContext,
  text: string,
  chilled: boolean,
): Promise<Map<string, StreamDefinition>> {
  let result: Awaited<ReturnType<typeof readStreamsBodySliced>>;
  try {
    result = await ctx.bodyQueue.run('', () =>
      readStreamsBodySliced(
        text,
        { provider: ctx.provider, chilled, bloblang: ctx.bloblang },
        new TimeSlicer(),
      ),
    );
  } catch (err) {
    throw asBadRequest(err);
  }
  if (!result.ok) throw new LintFailure(result.lints);
  for (const id of result.config.keys()) assertValidId(id);
  return result.config;
}

/** `/streams/{id}`: POST creates, GET reads, PUT replaces, PATCH merges, DELETE removes. */
export function streamHandler(ctx: StreamsApiContext): EndpointHandler {
  return guarded(async (req, res, params) => {
    const id = params.id ?? '';
    const query = queryOf(req);
    const { manager } = ctx;
    switch (req.method) {
      case 'GET': {
        const entry = manager.get(id);
        if (!entry) throw new StreamNotFoundError(id);
        return sendJson(res, 200, streamDetail(entry, ctx.provider));
      }
      case 'POST': {
        assertValidId(id);
        const definition = await readDefinition(ctx, req, isChilled(query));
        await manager.create(id, definition);
        logChange(ctx, id, 'created');
        return sendOk(res);
      }
      case 'PUT': {
        const definition = await readDefinition(ctx, req, isChilled(query));
        await manager.update(id, definition, stopTimeoutOf(query));
        logChange(ctx, id, 'updated');
        return sendOk(res);
      }
      case 'PATCH': {
        if (!manager.has(id)) throw new StreamNotFoundError(id);
        const patch = await readPatch(ctx, req);
        const chilled = isChilled(query);
        await manager.patch(
          id,
          (stored) => mergedDefinition(ctx, stored, patch, chilled),
          stopTimeoutOf(query),
        );
        logChange(ctx, id, 'updated');
        return sendOk(res);
      }
      case 'DELETE':
        await manager.delete(id, stopTimeoutOf(query));
        logChange(ctx, id, 'deleted');
        return sendOk(res);
      default:
        return sendVerbNotSupported(res, req.method);
    }
  });
}

function logChange(ctx: StreamsApiContext, id: string, change: 'created' | 'updated' | 'deleted'): void {
  ctx.logger.info({ stream: id }, `stream ${id} ${change} through the API`);
}

/** A POST/PUT body: env interpolation, YAML, lint gate (unless chilled), conversion. */
async function readDefinition(
  ctx: StreamsApiContext,
  req: IncomingMessage,
  chilled: boolean,
): Promise<StreamDefinition> {
  const text = await readText(req, ctx.bodyLimitBytes);
  // Decision 10: an empty body is a mistake, not a request for a stdin → stdout stream.
  if (text.trim() === '') throw new BadRequestError('the request body is empty: expected a stream config');
  let result: Awaited<ReturnType<typeof readStreamBodySliced>>;
  try {
    const options = {
      provider: ctx.provider,
      env: ctx.env,
      chilled,
      bloblang: ctx.bloblang,
      redpandaSection: ctx.redpandaSection,
    };
    result = await ctx.bodyQueue.run('', () => readStreamBodySliced(text, options, new TimeSlicer()));
  } catch (err) {
    throw asBadRequest(err);
  }
  if (!result.ok) throw new LintFailure(result.lints);
  return { config: result.config, raw: result.raw, posted: result.posted };
}

/** A PATCH body: YAML or JSON, never interpolated, and it must be an object (decision 3). */
async function readPatch(ctx: StreamsApiContext, req: IncomingMessage): Promise<Record<string, unknown>> {
  const text = await readText(req, ctx.bodyLimitBytes);
  let patch: unknown;
  try {
    patch = text.trim() === '' ? null : yamlToValue(parseBody(text, {}));
  } catch (err) {
    throw asBadRequest(err);
  }
  if (!isPlainObject(patch))
    throw new BadRequestError('a PATCH body must be an object to merge into the stream config');
  return patch;
}

/** The stored config with the patch merged in (RFC 7396), through the lint gate like a PUT. */
function mergedDefinition(
  ctx: StreamsApiContext,
  stored: { raw: unknown; posted: unknown },
  patch: Record<string, unknown>,
  chilled: boolean,
): StreamDefinition {
  const merged = mergePatch(stored.raw, patch);
  // The read view keeps its `${VAR}` references: the patch goes into the posted form too.
  const posted = stored.posted === stored.raw ? merged : mergePatch(stored.posted, patch);
  try {
    // Lints name lines of the merged config written out as YAML.
    const result = checkStream(parseYaml(stringify(merged)), {
      provider: ctx.provider,
      chilled,
      bloblang: ctx.bloblang,
    });
    if (!result.ok) throw new LintFailure(result.lints);
    return { config: result.config, raw: merged, posted };
  } catch (err) {
    throw asBadRequest(err);
  }
}

/** `/streams/{id}/stats`: the stream's own metrics plus `uptime_ns`. */
export function streamStatsHandler(ctx: StreamsApiContext): EndpointHandler {
  return guarded(async (req, res, params) => {
    if (req.method !== 'GET') return sendVerbNotSupported(res, req.method);
    const entry = ctx.manager.get(params.id ?? '');
    if (!entry) throw new StreamNotFoundError(params.id ?? '');
    const stats: Record<string, unknown> = { ...ctx.metrics.streamStats(entry.id) };
    stats.uptime_ns = Number(entry.stream.uptimeNs());
    sendJson(res, 200, stats);
  });
}
