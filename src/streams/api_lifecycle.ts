// `POST /streams/{id}/pause` and `/resume`: stop reading a stream's input and start again, without
// stopping the stream (its endpoints, connections and in-flight messages stay).
import type { EndpointHandler } from '../engine/context.js';
import type { StreamsApiContext } from './api_context.js';
import { sendFailure, sendOk, sendVerbNotSupported } from './request.js';
import { scrubbedError } from './scrubbed_error.js';

export function streamLifecycleHandler(ctx: StreamsApiContext, verb: 'pause' | 'resume'): EndpointHandler {
  return async (req, res, params) => {
    if (req.method !== 'POST') return sendVerbNotSupported(res, req.method);
    const id = params.id ?? '';
    try {
      await (verb === 'pause' ? ctx.manager.pause(id) : ctx.manager.resume(id));
      sendOk(res);
    } catch (err) {
      sendFailure(res, scrubbedError(err));
    }
  };
}
