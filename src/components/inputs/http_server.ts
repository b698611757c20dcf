// The `http_server` input: each request body becomes a message (a batch for multipart bodies);
// the response is sent only once the message is acknowledged (200, or 502 on a nack), and
// carries the sync response when the pipeline produced one.
import { defineComponent } from '../../config/spec.js';
import type { Input } from '../../engine/component.js';
import { httpServerInputFields } from './http_server_fields.js';
import { HttpServerReader } from './http_server_reader.js';

export { type HttpServerInputConfig, httpServerInputFields } from './http_server_fields.js';
export { canonicalHeaderKey } from './http_server_messages.js';
export { HttpServerReader } from './http_server_reader.js';

export const spec = defineComponent({
  name: 'http_server',
  kind: 'input',
  status: 'stable',
  categories: ['Network'],
  summary: 'Receives messages as HTTP requests: each request body is a message, multipart bodies a batch.',
  description:
    'With an empty `address` the endpoints live on the shared HTTP server (under the stream id in streams mode). A request is answered once its message is delivered: 200 (or the sync response the pipeline produced with a `sync_response` output), 502 when delivery failed, 408 after `timeout`. Metadata: `http_server_user_agent`, `http_server_request_path`, `http_server_verb`, `http_server_remote_ip`, every header (first value, canonical case), query parameter, path parameter and cookie. Websocket endpoints (`ws_path`) are not served yet.',
  fields: httpServerInputFields,
  examples: [
    {
      title: 'An uppercasing HTTP service',
      config: `input:
  http_server:
    address: 0.0.0.0:8080
    path: /upper
pipeline:
  processors:
    - mapping: 'root = content().uppercase()'
output:
  sync_response: {}
`,
    },
  ],
  build(config, ctx): Input {
    const reader = new HttpServerReader(config, ctx, {
      status: config.sync_response.status,
      headers: Object.entries(config.sync_response.headers),
      metadataHeader: config.sync_response.metadata_headers,
    });
    if (!config.address && config.path) {
      ctx.registerEndpoint(config.path, 'Post a message into the stream.', (req, res, params) =>
        reader.handle(req, res, params),
      );
    }
    return ctx.wrapReader(reader);
  },
});
