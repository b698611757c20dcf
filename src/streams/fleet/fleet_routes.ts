// The streams API in a fleet: any node answers any request. A request about one stream goes to
// the node that runs it (forward.ts); a new stream is created on the node it hashes to, which
// takes its lease first; `GET /streams` and `/ready` gather every node's answer. Requests another
// node forwarded are answered locally, never forwarded again.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { EndpointHandler } from '../../engine/context.js';
import { errorMessage } from '../../engine/errors.js';
import { sendError, sendJson, sendText } from '../../listener/respond.js';
import type { StreamsApiContext } from '../api_context.js';
import { streamSummary } from '../stream_view.js';
import type { FleetCoordinator } from './coordinator.js';
import { askNode, forwardRequest, isForwarded } from './forward.js';
import type { FleetNode } from './lease_store.js';

/** `/streams/{id}` and the routes below it. */
export function fleetStreamRoute(
  fleet: FleetCoordinator,
  ctx: StreamsApiContext,
  local: EndpointHandler,
  /** True for `/streams/{id}` itself, false for `/stats`, `/pause`, `/resume` below it. */
  item: boolean,
): EndpointHandler {
  return async (req, res, params) => {
    const id = params.id ?? '';
    const isCreate = item && req.method === 'POST';
    // A create runs only under its lease, whichever node the request came through.
    const createHere = async () => {
      if (!(await fleet.claim(id)))
        return sendError(res, 409, `Error: stream ${id} was just created on another node`);
      try {
        return await local(req, res, params);
      } finally {
        fleet.settle(id);
      }
    };
    if (ctx.manager.has(id)) return local(req, res, params);
    if (isForwarded(req)) return isCreate && !fleet.isStored(id) ? createHere() : local(req, res, params);
    let view: { nodes: FleetNode[]; owners: Map<string, string> };
    try {
      view = await fleet.refresh();
    } catch (err) {
      return sendError(
        res,
        503,
        `Error: ${fleet.problem() ?? `the fleet store cannot be read: ${errorMessage(err)}`}`,
      );
    }
    const owner = view.owners.get(id);
    if (owner !== undefined && owner !== fleet.node.id) {
      const node = view.nodes.find((n) => n.id === owner);
      if (node) return forwardRequest(req, res, fleet.node.id, node);
      return sendError(res, 503, `Error: stream ${id} runs on node ${owner}, which is not reachable`);
    }
    if (isCreate && owner === undefined && !fleet.isStored(id)) {
      const target = fleet.preferred(id, view.nodes);
      if (target.id !== fleet.node.id) return forwardRequest(req, res, fleet.node.id, target);
      return createHere();
    }
    // Stored but running nowhere (it did not start, or its node just died): a DELETE removes it.
    if (req.method === 'DELETE' && item && fleet.isStored(id) && owner === undefined) {
      try {
        await ctx.persistence?.persistStream(id, undefined);
        res.statusCode = 200;
        return void res.end();
      } catch (err) {
        return sendError(res, 503, `Error: ${errorMessage(err)}`);
      }
    }
    if (fleet.isStored(id) && req.method === 'GET' && item)
      return sendError(res, 503, `Error: stream ${id} is stored but runs on no node yet`);
    return local(req, res, params);
  };
}

/** `GET /streams`: every node's streams with the node that runs them (`node`); bulk POST is refused. */
export function fleetStreamsRoute(
  fleet: FleetCoordinator,
  ctx: StreamsApiContext,
  local: EndpointHandler,
): EndpointHandler {
  return async (req, res, params) => {
    if (req.method !== 'GET') {
      if (isForwarded(req)) return local(req, res, params);
      return sendError(
        res,
        400,
        'Error: replacing the whole set of streams (POST /streams) is not supported in a fleet: use /streams/{id}',
      );
    }
    const out: Record<string, unknown> = {};
    for (const entry of ctx.manager.entries())
      out[entry.id] = { ...streamSummary(entry), node: fleet.node.id };
    if (isForwarded(req)) return sendJson(res, 200, out);
    const { nodes } = await fleet.refresh().catch(() => fleet.view());
    await Promise.all(
      nodes
        .filter((n) => n.id !== fleet.node.id)
        .map(async (node) => {
          try {
            const answer = await askNode(node, '/streams', fleet.node.id, req.headers);
            if (answer.status !== 200) return;
            for (const [id, summary] of Object.entries(JSON.parse(answer.body) as Record<string, object>))
              out[id] ??= { ...summary, node: node.id };
          } catch {
            // An unreachable node's streams are listed from the store below, as not active.
          }
        }),
    );
    for (const id of fleet.storedIds())
      out[id] ??= { active: false, uptime: 0, uptime_str: '0s', node: null };
    sendJson(res, 200, Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : 1))));
  };
}

/** `/ready` of the fleet: this node's streams, every other node's `/ready`, and streams that run nowhere. */
export function fleetReadyRoute(
  fleet: FleetCoordinator,
  ctx: StreamsApiContext,
  local: EndpointHandler,
): EndpointHandler {
  return async (req: IncomingMessage, res: ServerResponse, params) => {
    const problem = fleet.problem();
    if (isForwarded(req) && problem === undefined) return local(req, res, params);
    const problems: string[] = problem === undefined ? [] : [problem];
    const down = ctx.manager.notReady();
    if (down.length > 0) problems.push(`streams ${down.join(', ')} are not connected`);
    if (!isForwarded(req)) {
      const { nodes, owners } = await fleet.refresh().catch(() => fleet.view());
      const answers = await Promise.all(
        nodes
          .filter((n) => n.id !== fleet.node.id)
          .map(async (node) => {
            try {
              const answer = await askNode(node, '/ready', fleet.node.id, req.headers);
              return answer.status === 200 ? undefined : `node ${node.id}: ${answer.body.trim()}`;
            } catch (err) {
              return `node ${node.id} (${node.address}) did not answer: ${errorMessage(err)}`;
            }
          }),
      );
      for (const answer of answers) if (answer) problems.push(answer);
      const orphans = fleet.storedIds().filter((id) => !owners.has(id) && !ctx.manager.has(id));
      if (orphans.length > 0) problems.push(`streams ${orphans.join(', ')} run on no node`);
    }
    if (problems.length === 0) return sendText(res, 200, 'OK');
    sendError(res, 503, problems.join('; '));
  };
}
