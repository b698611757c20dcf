// Dotenv files (`-e`): KEY=VALUE lines, optional `export `, quotes and comments.
import { readFile } from 'node:fs/promises';
import { ConfigError } from '../engine/errors.js';

const LINE = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_.]*)\s*=\s*(.*)$/;

export function parseEnvFile(text: string, file = 'env file'): Record<string, string> {
  const vars: Record<string, string> = {};
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!;
    if (/^\s*(#|$)/.test(raw)) continue;
    const match = LINE.exec(raw);
    if (!match) throw new ConfigError(`${file}: line ${i + 1}: expected KEY=VALUE`, i + 1, 1, file);
    const [, key, rest] = match as unknown as [string, string, string];
    const quote = rest[0];
    if (quote === '"' || quote === "'") {
      // A quoted value may span lines until its closing quote.
      let body = rest.slice(1);
      let end = findClosingQuote(body, quote);
      while (end === -1 && i + 1 < lines.length) {
        body += `\n${lines[++i]}`;
        end = findClosingQuote(body, quote);
      }
      if (end === -1)
        throw new ConfigError(`${file}: line ${i + 1}: unterminated quoted value`, i + 1, 1, file);
      const value = body.slice(0, end);
      vars[key] = quote === '"' ? unescapeDouble(value) : value;
    } else {
      vars[key] = rest.replace(/\s+#.*$/, '').trim();
    }
  }
  return vars;
}

function findClosingQuote(text: string, quote: string): number {
  for (let i = 0; i < text.length; i++) {
    if (quote === '"' && text[i] === '\\') {
      i++;
      continue;
    }
    if (text[i] === quote) return i;
  }
  return -1;
}

function unescapeDouble(value: string): string {
  return value.replace(/\\([nrt"\\])/g, (_, c: string) => ({ n: '\n', r: '\r', t: '\t' })[c] ?? c);
}

/** Reads env files in order; later files override earlier ones. */
export async function loadEnvFiles(paths: readonly string[]): Promise<Record<string, string>> {
  const vars: Record<string, string> = {};
  for (const path of paths) {
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (err) {
      throw new ConfigError(
        `${path}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'file not found' : String(err)}`,
      );
    }
    Object.assign(vars, parseEnvFile(text, path));
  }
  return vars;
}
