// Which stream (and resource) ids are acceptable. An id becomes a path segment (`/<id>/ready`) and a
// metric label, so it must not be able to climb out of its prefix or break a log line. Kept below
// components: the dynamic brokers' CRUD endpoints name their members by the same rule.

export const MAX_ID_LENGTH = 256;

// No path separators, whitespace or control characters.
const ID_CHARS = /^[^\s/\\\p{Cc}]+$/u;

/** Why `id` cannot name a stream or resource, or undefined when it can. */
export function idProblem(id: string): string | undefined {
  if (id === '') return 'it is empty';
  if (id.length > MAX_ID_LENGTH) return `it is longer than ${MAX_ID_LENGTH} characters`;
  if (id === '.' || id === '..') return `'${id}' is a relative path segment`;
  if (!ID_CHARS.test(id)) return 'it contains a slash, a backslash, whitespace or a control character';
  return undefined;
}
