// The `sync_response` output: hands the processed messages back to the input that is waiting
// to answer a request (e.g. `http_server`), which replies with them once the batch is acked.
import { defineComponent } from '../../config/spec.js';
import type { Output, OutputWriter } from '../../engine/component.js';
import type { Batch } from '../../message/message.js';
import { responseStoreOf } from '../sync_response_store.js';

/** Nothing to wait for: one settled promise serves every write. */
const DONE: Promise<void> = Promise.resolve();

class SyncResponseWriter implements OutputWriter {
  async connect(): Promise<void> {}

  write(batch: Batch): Promise<void> {
    try {
      keep(batch);
    } catch (err) {
      return Promise.reject(err);
    }
    return DONE;
  }

  /**
   * Several batches in one call: the engine then runs requests that arrived together (http_server)
   * as one group, with one output call and one ack for all of them.
   */
  writeGroup(batches: readonly Batch[]): Promise<void> {
    try {
      for (let i = 0; i < batches.length; i++) keep(batches[i]!);
    } catch (err) {
      return Promise.reject(err);
    }
    return DONE;
  }

  async close(): Promise<void> {}
}

/** Leaves the batch for the request it answers; messages of other inputs are acked and dropped. */
function keep(batch: Batch): void {
  const store = batch.length > 0 ? responseStoreOf(batch[0]!) : undefined;
  store?.add(batch);
}

export const spec = defineComponent({
  name: 'sync_response',
  kind: 'output',
  status: 'stable',
  categories: ['Utility'],
  summary:
    'Returns the processed messages as the response of the input that received them (e.g. http_server).',
  description:
    'Only inputs that answer their clients (such as `http_server`) use the result; with any other input the messages are acknowledged and dropped.',
  fields: [] as const,
  examples: [
    {
      title: 'An HTTP echo service that upper-cases request bodies',
      config: `input:
  http_server:
    path: /echo
pipeline:
  processors:
    - mapping: root = content().uppercase()
output:
  sync_response: {}
`,
    },
  ],
  build: (_config, ctx): Output => ctx.wrapWriter(new SyncResponseWriter(), { maxInFlight: 64 }),
});
