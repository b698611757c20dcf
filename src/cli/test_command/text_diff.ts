// A line diff of what a condition expected against what the message held, for failure reports.
import { diffLines } from 'diff';
import type { Style } from './style.js';

/** `- expected` / `+ received` lines (unchanged lines indented), or '' when there is no difference. */
export function lineDiff(expected: string, received: string, style: Style): string {
  const withNewline = (s: string) => (s.endsWith('\n') ? s : `${s}\n`);
  const out: string[] = [style.blue('--- expected'), style.red('+++ received')];
  for (const part of diffLines(withNewline(expected), withNewline(received))) {
    const lines = part.value.replace(/\n$/, '').split('\n');
    for (const line of lines) {
      if (part.removed) out.push(style.blue(`- ${line}`));
      else if (part.added) out.push(style.red(`+ ${line}`));
      else out.push(`  ${line}`);
    }
  }
  return out.join('\n');
}
