// `/<id>/ready`: 200 when every input and output of the stream is connected, else 503, with the
// connection statuses as JSON (spec §3.7). A finished stream answers 503 "stream terminated".
import type { ServerResponse } from 'node:http';
import type { EndpointHandler } from '../engine/context.js';
import type { Stream } from '../engine/stream.js';

interface StatusView {
  label: string;
  path: string;
  connected: boolean;
  error?: string;
}

export function readyHandler(stream: Stream): EndpointHandler {
  return (_req, res) => {
    if (!stream.active) {
      const statuses = stream.statuses().map((s) => view(s.label, s.path, false, s.error));
      return send(res, 503, { error: 'stream terminated', statuses });
    }
    const statuses = stream.statuses().map((s) => view(s.label, s.path, s.connected, s.error));
    send(res, statuses.every((s) => s.connected) ? 200 : 503, { statuses });
  };
}

function view(label: string, path: string, connected: boolean, error: string | undefined): StatusView {
  const out: StatusView = { label, path, connected };
  if (error) out.error = error;
  return out;
}

function send(res: ServerResponse, status: number, body: object): void {
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json');
  res.end(JSON.stringify(body));
}
