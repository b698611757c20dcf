// How `nekton blobl` prints one result: strings and bytes raw, a deleted message as an empty line,
// anything else as JSON (indented by two spaces with `--pretty`, as the reference's gabs does).
import { toJsonIndented } from '../bloblang/value.js';
import type { Message } from '../message/message.js';

export function formatBloblResult(out: Message | null, pretty: boolean): string {
  if (out === null) return '';
  if (!pretty) return out.text();
  if (!out.hasStructure()) {
    // The mapping left the content as it was: the reference prints the parsed input, indented.
    try {
      out.structured();
    } catch {
      return out.text();
    }
  }
  const value = out.structured();
  if (typeof value === 'string' || value instanceof Uint8Array) return out.text();
  return toJsonIndented(value, '  ');
}
