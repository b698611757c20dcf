// `/ready` of streams mode: 200 `OK` unless a running stream has an input or output not
// connected; then 503 naming those streams in ascending order (decision 7).
import type { EndpointHandler } from '../engine/context.js';
import { sendError, sendText } from '../listener/respond.js';
import type { StreamManager } from './manager.js';

export function aggregatedReadyHandler(manager: StreamManager): EndpointHandler {
  return (_req, res) => {
    const down = manager.notReady();
    if (down.length === 0) return sendText(res, 200, 'OK');
    sendError(res, 503, `streams ${down.join(', ')} are not connected`);
  };
}
