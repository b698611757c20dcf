// Functions and methods that belong to the language core: they read the message being mapped,
// return sentinels, or (for the methods) are compiled specially by compiler.ts.
import { Message } from '../message/message.js';
import type { Exec } from './exec.js';
import { structuredOf } from './exec.js';
import {
  BloblangError,
  type CallContext,
  DELETED,
  NOTHING,
  type ParamSpec,
  registerFunction,
  registerMethod,
  type Value,
} from './library.js';
import { setKey, stringToBytes, type ValueObject, valueToString } from './value.js';

/** Parameters of the methods compiler.ts implements itself (it looks them up here). */
export const CORE_METHODS: Record<string, ParamSpec[]> = {
  catch: [{ name: 'fallback', type: 'query' }],
  or: [{ name: 'fallback', type: 'query' }],
  from: [{ name: 'index', type: 'integer' }],
  from_all: [],
  apply: [{ name: 'mapping', type: 'string' }],
};

for (const [name, params] of Object.entries(CORE_METHODS)) {
  registerMethod({
    name,
    params,
    impl() {
      throw new BloblangError(`method ${name} is compiled by the language core`);
    },
  });
}

/** Stands in for a message outside the batch (`.from(99)`): no content, metadata or error. */
const ABSENT = new Message('');

function current(ctx: CallContext): Message {
  return ctx.batch[ctx.index] ?? ABSENT;
}

/** Metadata values as the legacy `meta()` functions show them: strings. */
function metaString(v: unknown): Value {
  if (v === undefined || v === null) return null;
  return valueToString(v);
}

function metaAll(msg: Message, convert: (v: unknown) => Value): Value {
  const out: ValueObject = {};
  for (const [k, v] of msg.metadata()) setKey(out, k, convert(v));
  return out;
}

const typed = (v: unknown): Value => (v === undefined ? null : (v as Value));

/** Dot path lookup used by `json("a.b")`; `~1` and `~0` escape `.` and `~` inside keys. */
function jsonPath(doc: Value, path: string): Value {
  if (path === '') return doc;
  let cur: Value = doc;
  for (const raw of path.split('.')) {
    const key = raw.replaceAll('~1', '.').replaceAll('~0', '~');
    if (Array.isArray(cur)) {
      const idx = Number(key);
      cur = Number.isInteger(idx) && idx >= 0 && idx < cur.length ? cur[idx] : null;
    } else if (cur !== null && typeof cur === 'object' && Object.hasOwn(cur, key)) {
      cur = (cur as ValueObject)[key];
    } else {
      return null;
    }
  }
  return cur;
}

const sentinel = (s: symbol): Value => s as unknown as Value;

registerFunction({ name: 'deleted', params: [], impl: () => sentinel(DELETED) });
registerFunction({ name: 'nothing', params: [], impl: () => sentinel(NOTHING) });
registerFunction({
  name: 'throw',
  params: [{ name: 'why', type: 'string' }],
  impl(args) {
    throw new BloblangError(String(args[0]));
  },
});
registerFunction({ name: 'content', params: [], impl: (_a, ctx) => current(ctx).bytes() });
registerFunction({
  name: 'json',
  params: [{ name: 'path', type: 'string', default: '' }],
  impl: (args, ctx) => jsonPath(structuredOf(current(ctx)), args[0] as string),
});
registerFunction({
  name: 'meta',
  params: [{ name: 'key', type: 'string', default: '' }],
  impl(args, ctx) {
    const msg = current(ctx);
    const key = args[0] as string;
    return key === '' ? metaAll(msg, metaString) : metaString(msg.getMeta(key));
  },
});
registerFunction({
  name: 'metadata',
  params: [{ name: 'key', type: 'string', default: '' }],
  impl(args, ctx) {
    const msg = current(ctx);
    const key = args[0] as string;
    return key === '' ? metaAll(msg, typed) : typed(msg.getMeta(key));
  },
});
registerFunction({
  name: 'root_meta',
  params: [{ name: 'key', type: 'string', default: '' }],
  impl(args, ctx) {
    const msg = (ctx as Exec).out ?? current(ctx);
    const key = args[0] as string;
    return key === '' ? metaAll(msg, metaString) : metaString(msg.getMeta(key));
  },
});
registerFunction({
  name: 'error',
  params: [],
  impl: (_a, ctx) => current(ctx).error?.message ?? null,
});
registerFunction({ name: 'errored', params: [], impl: (_a, ctx) => current(ctx).error !== null });
for (const name of ['error_source_label', 'error_source_name', 'error_source_path']) {
  registerFunction({
    name,
    params: [],
    impl(_a, ctx) {
      const err = current(ctx).error as (Error & Record<string, unknown>) | null;
      if (!err) return null;
      const field = name.slice('error_source_'.length);
      const v = err[`source${field[0].toUpperCase()}${field.slice(1)}`];
      return typeof v === 'string' ? v : field === 'label' ? '' : null;
    },
  });
}
registerFunction({ name: 'batch_index', params: [], impl: (_a, ctx) => ctx.index });
registerFunction({ name: 'batch_size', params: [], impl: (_a, ctx) => ctx.batch.length });
registerFunction({ name: 'tracing_id', params: [], impl: () => '' });
registerFunction({ name: 'tracing_span', params: [], impl: () => null });

/** Exposed for tests of the core helpers. */
export const internals = { jsonPath, metaString, stringToBytes };
