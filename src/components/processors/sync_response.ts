// `sync_response` processor: leaves the batch, as it is at this step, as the response of the input
// waiting to answer the request it came from (http_server), and passes it on unchanged. Later
// steps may change the messages; the response keeps this step's copies.
import { defineComponent } from '../../config/spec.js';
import type { Processor } from '../../engine/component.js';
import { copyBatch } from '../../message/message.js';
import { responseStoreOf } from '../sync_response_store.js';

export const spec = defineComponent({
  name: 'sync_response',
  kind: 'processor',
  status: 'stable',
  categories: ['Utility'],
  summary:
    'Adds the messages, as they are at this step, to the response of the input that received them (e.g. http_server), and passes them on.',
  description:
    'Lets a pipeline answer a request early (the answer still waits until the message is acknowledged) while its messages go on to an output. With an input that answers no requests it does nothing.',
  fields: [],
  examples: [
    {
      title: 'Answer with the enriched document, and also store it',
      config: `input:
  http_server:
    path: /orders
pipeline:
  processors:
    - mapping: 'root = this.merge({"received": now()})'
    - sync_response: {}
output:
  file:
    path: /tmp/nekton-orders.jsonl
    codec: lines
`,
    },
  ],
  build: (): Processor => ({
    process(batch) {
      const store = batch.length > 0 ? responseStoreOf(batch[0]!) : undefined;
      store?.add(copyBatch(batch));
      return [batch];
    },
    close: async () => {},
  }),
});
