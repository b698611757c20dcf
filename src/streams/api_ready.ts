// `/ready` of streams mode: 200 `OK` unless a running stream has an input or output not
// connected; then 503 naming those streams in ascending order (decision 7). With a stream store,
// also 503 while the store cannot be reached (the streams keep running).
import type { EndpointHandler } from '../engine/context.js';
import { sendError, sendText } from '../listener/respond.js';
import type { StreamManager } from './manager.js';
import type { StreamStore } from './store/store.js';

export function aggregatedReadyHandler(manager: StreamManager, store?: StreamStore): EndpointHandler {
  return (_req, res) => {
    const problems: string[] = [];
    const storeProblem = store?.problem();
    if (store && storeProblem !== undefined)
      problems.push(`stream store ${store.name} is unreachable: ${storeProblem}`);
    const down = manager.notReady();
    if (down.length > 0) problems.push(`streams ${down.join(', ')} are not connected`);
    if (problems.length === 0) return sendText(res, 200, 'OK');
    sendError(res, 503, problems.join('; '));
  };
}
