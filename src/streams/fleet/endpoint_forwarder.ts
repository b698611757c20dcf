// Another node's stream seen from this one: its endpoints (an `http_server` path, a dynamic output's
// members) exist only where it runs, so this node answers `/<id>/...` by forwarding there.
import type { EndpointHandler } from '../../engine/context.js';
import { sendError } from '../../listener/respond.js';
import { forwardRequest, isForwarded } from './forward.js';
import type { FleetView } from './lease_store.js';

/**
 * A stream's own endpoints (`/<id>/...`: an `http_server` path, a dynamic output's members) are
 * registered only on the node that runs it; the others register `/<id>/` as a prefix that forwards.
 */
export function streamEndpointForwarder(fleet: FleetView, id: string): EndpointHandler {
  return async (req, res) => {
    const { nodes, owners } = await fleet.refresh().catch(() => fleet.view());
    const node = nodes.find((n) => n.id === owners.get(id));
    if (!node || node.id === fleet.node.id || isForwarded(req))
      return sendError(res, 404, '404 page not found');
    return forwardRequest(req, res, fleet.node.id, node);
  };
}
