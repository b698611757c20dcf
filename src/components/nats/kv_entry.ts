// A key-value entry as a message with the reference's `nats_kv_*` metadata, shared by the
// `nats_kv` input (and spelled as the `nats_kv` processor spells it).
import type { KvEntry } from '@nats-io/kv';
import { Message } from '../../message/message.js';

/** Operation names as the reference's metadata spells them (the Go client's KeyValueOp strings). */
export const KV_OPERATION_NAMES: Record<KvEntry['operation'], string> = {
  PUT: 'KeyValuePutOp',
  DEL: 'KeyValueDeleteOp',
  PURGE: 'KeyValuePurgeOp',
};

export function kvEntryMessage(entry: KvEntry): Message {
  const msg = new Message(entry.value);
  msg.setMeta('nats_kv_key', entry.key);
  msg.setMeta('nats_kv_bucket', entry.bucket);
  msg.setMeta('nats_kv_revision', entry.revision);
  msg.setMeta('nats_kv_delta', entry.delta ?? 0);
  msg.setMeta('nats_kv_operation', KV_OPERATION_NAMES[entry.operation]);
  msg.setMeta('nats_kv_created', entry.created.toISOString());
  return msg;
}
