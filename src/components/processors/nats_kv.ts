// The `nats_kv` processor: one key-value operation (get, put, create, update, delete, purge,
// history, keys...) against a NATS bucket per message.
import type { KV, KvEntry } from '@nats-io/kv';
import { defineComponent, field, type RawConfigOf } from '../../config/spec.js';
import type { Processor } from '../../engine/component.js';
import { perMessage, processorErrorLog } from '../../engine/processor_helpers.js';
import type { Message } from '../../message/message.js';
import { connectionName, lintNatsConnection, securityFields } from '../nats/connection.js';
import { bucketConnectionFields, KvBucket } from '../nats/kv.js';

const OPERATIONS = [
  'create',
  'delete',
  'get',
  'get_revision',
  'history',
  'keys',
  'purge',
  'put',
  'update',
] as const;
const NEEDS_REVISION = new Set<string>(['get_revision', 'update']);

/** Operation names as the reference's metadata spells them (the Go client's KeyValueOp strings). */
const OP_NAMES: Record<KvEntry['operation'], string> = {
  PUT: 'KeyValuePutOp',
  DEL: 'KeyValueDeleteOp',
  PURGE: 'KeyValuePurgeOp',
};

interface Request {
  kv: KV;
  key: string;
  revision: number;
  msg: Message;
  bucket: string;
}

function setKeyMeta(
  msg: Message,
  bucket: string,
  key: string,
  revision: number,
  op: KvEntry['operation'],
): Message {
  msg.setMeta('nats_kv_key', key);
  msg.setMeta('nats_kv_bucket', bucket);
  msg.setMeta('nats_kv_revision', revision);
  msg.setMeta('nats_kv_operation', OP_NAMES[op]);
  return msg;
}

function fromEntry(source: Message, entry: KvEntry): Message {
  const out = source.copy();
  out.setBytes(entry.value);
  setKeyMeta(out, entry.bucket, entry.key, entry.revision, entry.operation);
  out.setMeta('nats_kv_delta', entry.delta ?? 0);
  out.setMeta('nats_kv_created', entry.created.toISOString());
  return out;
}

async function found(entry: Promise<KvEntry | null>, key: string): Promise<KvEntry> {
  const e = await entry;
  if (e?.operation !== 'PUT') throw new Error(`nats: key not found: ${key}`);
  return e;
}

type Operation = (r: Request) => Promise<Message>;

const RUN: Record<string, Operation> = {
  get: async (r) => fromEntry(r.msg, await found(r.kv.get(r.key), r.key)),
  get_revision: async (r) => fromEntry(r.msg, await found(r.kv.get(r.key, { revision: r.revision }), r.key)),
  create: async (r) =>
    setKeyMeta(r.msg.copy(), r.bucket, r.key, await r.kv.create(r.key, r.msg.bytes()), 'PUT'),
  put: async (r) => setKeyMeta(r.msg.copy(), r.bucket, r.key, await r.kv.put(r.key, r.msg.bytes()), 'PUT'),
  update: async (r) =>
    setKeyMeta(r.msg.copy(), r.bucket, r.key, await r.kv.update(r.key, r.msg.bytes(), r.revision), 'PUT'),
  delete: async (r) => {
    await r.kv.delete(r.key);
    return setKeyMeta(r.msg.copy(), r.bucket, r.key, 0, 'DEL');
  },
  purge: async (r) => {
    await r.kv.purge(r.key);
    return setKeyMeta(r.msg.copy(), r.bucket, r.key, 0, 'PURGE');
  },
  history: async (r) => {
    const entries: unknown[] = [];
    for await (const e of await r.kv.history({ key: r.key })) {
      entries.push({
        key: e.key,
        value: Buffer.from(e.value).toString(),
        bucket: e.bucket,
        revision: e.revision,
        delta: e.delta ?? 0,
        operation: OP_NAMES[e.operation],
        created: e.created.toISOString(),
      });
    }
    const out = r.msg.copy();
    out.setStructured(entries);
    out.setMeta('nats_kv_key', r.key);
    out.setMeta('nats_kv_bucket', r.bucket);
    return out;
  },
  keys: async (r) => {
    const keys: string[] = [];
    for await (const k of await r.kv.keys(r.key)) keys.push(k);
    const out = r.msg.copy();
    out.setStructured(keys);
    out.setMeta('nats_kv_bucket', r.bucket);
    return out;
  },
};

function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  if (ms <= 0) return work;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`nats_kv ${what} timed out after ${ms}ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

const fields = [
  ...bucketConnectionFields(),
  field.enum('operation', 'The operation to perform on the KV bucket.', OPERATIONS),
  field.interpolated('key', 'The key for each message (a filter for `keys`).', {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: Bloblang interpolation, not a JS template
    examples: ['foo', 'foo.bar.baz', 'foo.${! meta("kafka_key") }'],
  }),
  field.interpolated('revision', 'The revision of the key to operate on (`get_revision` and `update`).', {
    optional: true,
    advanced: true,
    // biome-ignore lint/suspicious/noTemplateCurlyInString: Bloblang interpolation, not a JS template
    examples: ['42', '${! @nats_kv_revision }'],
  }),
  field.duration(
    'timeout',
    'The maximum period to wait on an operation before aborting and returning an error.',
    {
      default: '5s',
      advanced: true,
    },
  ),
  ...securityFields(),
] as const;

function lint(config: RawConfigOf<typeof fields>): string[] {
  const problems = lintNatsConnection(config);
  if (!config.key) problems.push("'key' must be set to a non-empty string");
  const op = config.operation?.toLowerCase();
  const hasRevision = config.revision !== undefined && config.revision !== '';
  if (NEEDS_REVISION.has(op) && !hasRevision)
    problems.push(`'revision' must be set when operation is '${op}'`);
  if (!NEEDS_REVISION.has(op) && hasRevision)
    problems.push(`'revision' cannot be set when operation is '${op}'`);
  return problems;
}

export const spec = defineComponent({
  name: 'nats_kv',
  kind: 'processor',
  status: 'stable',
  categories: ['Services'],
  summary: 'Performs an operation on a NATS key-value bucket for each message.',
  description: `\`key\` (and \`revision\`) are interpolated per message. A failed operation (missing key, wrong revision, unreachable server naming its address) flags the message with the error, to be handled with \`catch\` or a \`fallback\`/\`switch\` output; the rest of the batch goes on.

### Operations

- \`get\`: the message becomes the latest value of \`key\`.
- \`get_revision\`: the message becomes the value of \`key\` at \`revision\`.
- \`create\`: stores the message under \`key\` only if the key does not exist; the new revision is in \`nats_kv_revision\`.
- \`put\`: stores the message under \`key\`; the revision is in \`nats_kv_revision\`.
- \`update\`: stores the message under \`key\` only if \`revision\` is the latest revision.
- \`delete\`: deletes \`key\`, keeping its history.
- \`purge\`: deletes \`key\` and its history.
- \`history\`: the message becomes an array of objects with \`key\`, \`value\`, \`bucket\`, \`revision\`, \`delta\`, \`operation\` and \`created\`, one per stored revision of \`key\`.
- \`keys\`: the message becomes an array of the keys that match \`key\` as a filter (\`>\` for all).

The message is otherwise kept as it was (\`create\`, \`put\`, \`update\`, \`delete\`, \`purge\`).

### Metadata

- \`get\`, \`get_revision\`: nats_kv_key, nats_kv_bucket, nats_kv_revision, nats_kv_delta, nats_kv_operation, nats_kv_created
- \`create\`, \`put\`, \`update\`, \`delete\`, \`purge\`: nats_kv_key, nats_kv_bucket, nats_kv_revision, nats_kv_operation
- \`keys\`: nats_kv_bucket`,
  fields,
  lint,
  examples: [
    {
      title: 'Enrich messages with a value looked up by key',
      config: `input:
  generate:
    count: 1
    interval: ''
    mapping: 'root = {"user": "u1"}'
pipeline:
  processors:
    - branch:
        processors:
          - nats_kv:
              urls: [ nats://127.0.0.1:4222 ]
              bucket: profiles
              operation: get
              key: '\${! this.user }'
        result_map: 'root.profile = this'
output:
  stdout: {}
`,
    },
  ],
  build(config, ctx): Processor {
    const operation = config.operation;
    const run = RUN[operation] as Operation;
    const key = config.key;
    // Lint allows a revision only for the operations that read it.
    const revision = NEEDS_REVISION.has(operation) ? config.revision : undefined;
    const timeoutMs = config.timeout;
    const bucket = new KvBucket(config, connectionName(ctx));
    const logError = processorErrorLog(ctx.logger);
    return {
      process: perMessage(
        async (msg, batch, i) => {
          const k = key.render(batch, i);
          let rev = 0;
          if (revision) {
            const text = revision.render(batch, i);
            rev = Number(text);
            if (!Number.isInteger(rev) || rev < 0) throw new Error(`revision is not a number: '${text}'`);
          }
          const work = bucket.run((kv) => run({ kv, key: k, revision: rev, msg, bucket: config.bucket }));
          return withTimeout(work, timeoutMs, `${operation} of '${k}'`);
        },
        { onError: logError },
      ),
      close: () => bucket.close(),
    };
  },
});
