// Which component a config object names: an explicit `type`, else the one key that is a
// registered component of that kind (wrapper keys such as `label` do not count).
import type { ConfigKind, SchemaProvider } from './schema.js';
import { defaultTypeOf, wrapperFields } from './wrapper_fields.js';

export type TypeInference = { ok: true; name: string } | { ok: false; error: string; keys: string[] };

/** `keys` are the object's keys in document order; `explicit` the value of its `type` key. */
export function inferComponentType(
  provider: SchemaProvider,
  kind: ConfigKind,
  keys: readonly string[],
  explicit?: string,
): TypeInference {
  if (explicit) return { ok: true, name: explicit };
  const reserved = wrapperFields(kind);
  const candidates: string[] = [];
  let inferred = '';
  for (const key of keys) {
    if (reserved.has(key)) continue;
    candidates.push(key);
    if (!provider.get(kind, key)) continue;
    if (inferred) {
      const [a, b] = [inferred, key].sort();
      return {
        ok: false,
        keys: [...keys],
        error: `unable to infer ${kind} type, multiple candidates '${a}' and '${b}'`,
      };
    }
    inferred = key;
  }
  if (candidates.length === 0) {
    const fallback = defaultTypeOf(kind);
    if (fallback && provider.get(kind, fallback)) return { ok: true, name: fallback };
    return { ok: false, keys: [...keys], error: `an explicit ${kind} type must be specified` };
  }
  if (!inferred) {
    return {
      ok: false,
      keys: [...keys],
      error: `unable to infer ${kind} type from candidates: [${[...candidates].sort().join(' ')}]`,
    };
  }
  return { ok: true, name: inferred };
}
