// How deep a JSON text nests, without parsing it: JSON.parse accepts any depth, the reference
// (and every walk over the value) stops at MAX_DEPTH.

/** Whether brackets outside strings in `text` open more than `limit` levels at some point. */
export function exceedsNesting(text: string, limit: number): boolean {
  let depth = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // Skip the string: a quote preceded by a backslash does not end it.
      for (i++; i < n; i++) {
        const s = text.charCodeAt(i);
        if (s === 0x5c) i++;
        else if (s === 0x22) break;
      }
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}
