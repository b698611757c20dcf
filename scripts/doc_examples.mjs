// Finds the shell examples of a Markdown file and what each one is documented to print.
//
// A fenced block marked with `<!-- doc-test -->` on the line before it is run; one marked
// `<!-- doc-test: skip REASON -->` is not, and says why; a block of any language marked
// `<!-- doc-test: file NAME -->` is written to NAME for the commands after it. Any other
// sh/bash/console/shell block is an unchecked example, which scripts/check-docs.mjs refuses.
// A run block is in console form:
//
//   $ command            a command (a trailing `\` or a heredoc `<<'EOF'` continues it)
//   expected output      the lines after a command, up to the next `$ `, are what it prints
//   ...                  alone on a line: any number of lines; inside a line: any text
//
// A command followed by no output lines must exit 0; its output is not checked.

const FENCE = /^(\s*)(`{3,}|~{3,})\s*([\w-]*)/;
const MARKER = /^<!--\s*doc-test(?::\s*(.*?))?\s*-->\s*$/;
const SHELL_LANGS = new Set(['sh', 'bash', 'console', 'shell', 'shell-session', 'zsh']);

/** Fenced blocks with their language, first line (1-based) and marker, if any. */
export function findBlocks(text) {
  const lines = text.split('\n');
  const blocks = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]);
    if (!open) continue;
    const fence = open[2];
    const body = [];
    let j = i + 1;
    while (j < lines.length && !lines[j].trimStart().startsWith(fence)) body.push(lines[j++]);
    const marker = i > 0 ? MARKER.exec(lines[i - 1].trim()) : null;
    blocks.push({
      line: i + 1,
      lang: open[3].toLowerCase(),
      body,
      marker: marker ? { options: (marker[1] ?? '').trim() } : undefined,
    });
    i = j;
  }
  return blocks;
}

export function isShellBlock(block) {
  return SHELL_LANGS.has(block.lang);
}

/** What a marker asks: run the block, or skip it for a stated reason. */
export function markerAction(marker) {
  if (marker.options === '') return { run: true };
  const file = /^file\s+([\w.-]+)$/.exec(marker.options);
  if (file) return { run: false, file: file[1] };
  const skip = /^skip\b\s*(.*)$/.exec(marker.options);
  if (skip) {
    if (skip[1] === '') throw new Error('a doc-test skip needs a reason: <!-- doc-test: skip REASON -->');
    return { run: false, reason: skip[1] };
  }
  throw new Error(`unknown doc-test option '${marker.options}' (expected nothing, file NAME or skip REASON)`);
}

/** The commands of a console block, each with its expected output lines. */
export function parseConsole(body, firstLine) {
  const steps = [];
  for (let i = 0; i < body.length; i++) {
    const line = body[i];
    if (!line.startsWith('$ ')) {
      if (steps.length === 0) {
        if (line.trim() === '') continue;
        throw new Error(`line ${firstLine + i}: output before any command (commands start with "$ ")`);
      }
      steps.at(-1).expected.push(line);
      continue;
    }
    const start = i;
    const command = [line.slice(2)];
    const heredoc = /<<-?\s*(['"]?)(\w+)\1/.exec(line);
    if (heredoc) {
      while (++i < body.length && body[i].trim() !== heredoc[2]) command.push(body[i]);
      if (i >= body.length) throw new Error(`line ${firstLine + i}: heredoc ${heredoc[2]} is not closed`);
      command.push(body[i]);
    } else {
      while (command.at(-1).endsWith('\\') && i + 1 < body.length) command.push(body[++i]);
    }
    steps.push({ line: firstLine + start, command: command.join('\n'), expected: [] });
  }
  for (const step of steps) {
    while (step.expected.length > 0 && step.expected.at(-1).trim() === '') step.expected.pop();
  }
  return steps;
}

/** Whether `actual` (text) is what `expected` (lines with `...` wildcards) documents. */
export function matchesExpected(actual, expected) {
  const lines = actual
    .replace(/\s+$/, '')
    .split('\n')
    .map((l) => l.trimEnd());
  const want = expected.map((l) => l.trimEnd());
  const lineMatches = (pattern, text) => {
    const parts = pattern.split('...').map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    return new RegExp(`^${parts.join('.*')}$`).test(text);
  };
  const match = (w, a) => {
    if (w === want.length) return a === lines.length;
    if (want[w] === '...') {
      for (let k = a; k <= lines.length; k++) if (match(w + 1, k)) return true;
      return false;
    }
    return a < lines.length && lineMatches(want[w], lines[a]) && match(w + 1, a + 1);
  };
  return match(0, 0);
}
