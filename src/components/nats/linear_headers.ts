// The NATS client's header set (MsgHdrsImpl) finds a key by listing every key first, so decoding
// or building a message with n headers costs n² steps: one 560 KB message with 60,000 headers
// held the event loop for over two minutes. Exact (case-sensitive) lookups, which header decoding
// and nekton use, get the same answer from the Map the set keeps its keys in.

interface HeaderSetClass {
  prototype: {
    findKeys(key: string, match?: string): string[];
  };
}

const LINEAR = Symbol.for('nekton.nats.linearHeaderLookup');

/** Replaces the exact-match key lookup of the client's header class, once per process. */
export function makeHeaderLookupLinear(headerSet: HeaderSetClass, exact: string): void {
  const proto = headerSet.prototype as HeaderSetClass['prototype'] & { [LINEAR]?: true };
  if (proto[LINEAR]) return;
  const listAndFilter = proto.findKeys;
  proto.findKeys = function findKeys(this: { headers: Map<string, string[]> }, key, match = exact) {
    if (match !== exact) return listAndFilter.call(this, key, match);
    return this.headers.has(key) ? [key] : [];
  };
  proto[LINEAR] = true;
}
