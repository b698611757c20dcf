// `${VAR}`, `${VAR:default}`, `${VAR|base64decode}` substitution on raw config text, before
// parsing (spec §2.3). `${{VAR}}` is an escape for a literal `${VAR}`; `${! ... }` is left alone.

// Scanned by hand rather than with a regular expression: bodies can be megabytes of text, and
// V8 has been seen to run out of memory compiling the equivalent pattern for such a subject.
const NAME_CHAR = /[0-9A-Za-z_.]/;
const DECODER_CHAR = /[0-9A-Za-z]/;

/** End (exclusive) of a run of name characters starting at i. */
function nameEnd(text: string, i: number): number {
  while (i < text.length && NAME_CHAR.test(text[i]!)) i++;
  return i;
}

/**
 * Index of the `}` closing a `:default` that starts at i: any characters but `}`, where a nested
 * `${...}` may hold the default's own braces. -1 when nothing closes it.
 */
function defaultEnd(text: string, i: number): number {
  let lastNestedClose = -1;
  while (i < text.length) {
    const c = text[i];
    if (c === '}') return i;
    if (c === '$' && text[i + 1] === '{') {
      const close = text.indexOf('}', i + 2);
      if (close > i + 2) {
        lastNestedClose = close;
        i = close + 1;
        continue;
      }
    }
    i++;
  }
  // Unclosed: the pattern would have ended the token at the last nested block's brace.
  return lastNestedClose;
}

/** Length of the `${...}` token (or `${{...}}` escape when escaped) at i, 0 when there is none. */
function tokenLength(text: string, i: number, escaped: boolean): number {
  const start = i + (escaped ? 3 : 2);
  let j = nameEnd(text, start);
  if (j === start) return 0;
  if (text[j] === ':') {
    j = defaultEnd(text, j + 1);
    if (j === -1) return 0;
  } else if (!escaped && text[j] === '|') {
    let k = j + 1;
    while (k < text.length && DECODER_CHAR.test(text[k]!)) k++;
    if (k === j + 1) return 0;
    j = k;
  }
  if (text[j] !== '}') return 0;
  if (escaped) return text[j + 1] === '}' ? j + 2 - i : 0;
  return j + 1 - i;
}

export type EnvLookup = (name: string) => string | undefined;

export interface EnvInterpolation {
  /** The substituted text; missing variables are replaced by "" (what chilled mode runs). */
  text: string;
  /** Variables referenced without a default and not defined, in order of appearance. */
  missing: string[];
  /** Decode problems; these fail even in chilled mode. */
  errors: string[];
  /** The 1-based line of the first decode problem, 0 when there is none. */
  firstErrorLine: number;
}

export function missingEnvMessage(missing: readonly string[]): string {
  return `required environment variables were not set: [${missing.join(' ')}]`;
}

export function envLookup(env: Readonly<Record<string, string | undefined>>): EnvLookup {
  return (name) => (Object.hasOwn(env, name) ? env[name] : undefined);
}

export function interpolateEnv(text: string, lookup: EnvLookup): EnvInterpolation {
  const missing: string[] = [];
  const errors: string[] = [];
  let firstErrorLine = 0;
  const resolve = (token: string, at: number): string => {
    const before = errors.length;
    const value = substitute(token);
    if (firstErrorLine === 0 && errors.length > before) firstErrorLine = text.slice(0, at).split('\n').length;
    return value;
  };
  const substitute = (token: string): string => {
    const body = token.slice(2, -1);
    const colon = body.indexOf(':');
    let value: string;
    let decoder = '';
    if (colon === -1) {
      const pipe = body.lastIndexOf('|');
      const name = pipe === -1 ? body : body.slice(0, pipe);
      if (pipe !== -1) decoder = body.slice(pipe + 1);
      const found = lookup(name);
      if (found === undefined) missing.push(name);
      value = found ?? '';
    } else {
      const name = body.slice(0, colon);
      let fallback = body.slice(colon + 1);
      const pipe = fallback.lastIndexOf('|');
      if (pipe !== -1) {
        decoder = fallback.slice(pipe + 1);
        fallback = fallback.slice(0, pipe);
      }
      const found = lookup(name);
      value = found === undefined || found === '' ? fallback : found;
    }
    if (decoder === 'base64decode') {
      const decoded = decodeStdBase64(value);
      if (typeof decoded === 'string') value = decoded;
      else errors.push(`failed to decode base64-encoded env var: ${decoded.error}`);
    } else if (decoder !== '') {
      errors.push(`unknown env var decode function: ${decoder}`);
    }
    // A raw newline would break the YAML around the token.
    return value.replaceAll('\n', '\\n');
  };
  let out = '';
  let from = 0;
  for (let i = text.indexOf('${'); i !== -1; i = text.indexOf('${', i)) {
    const escaped = text[i + 2] === '{';
    const length = tokenLength(text, i, escaped);
    if (length === 0) {
      i += 2;
      continue;
    }
    const token = text.slice(i, i + length);
    // `${{VAR}}` stands for the literal text `${VAR}`.
    out += text.slice(from, i) + (escaped ? `$${token.slice(2, -1)}` : resolve(token, i));
    i += length;
    from = i;
  }
  return { text: out + text.slice(from), missing, errors, firstErrorLine };
}

/** Go's base64.StdEncoding: padded, no whitespace, and it says where the data went wrong. */
function decodeStdBase64(value: string): string | { error: string } {
  const firstBad = value.search(/[^A-Za-z0-9+/=]/);
  if (firstBad !== -1) return { error: `illegal base64 data at input byte ${firstBad}` };
  const padAt = value.indexOf('=');
  if (value.length % 4 !== 0 || (padAt !== -1 && !/^={1,2}$/.test(value.slice(padAt)))) {
    const at = padAt !== -1 ? padAt : value.length - (value.length % 4);
    return { error: `illegal base64 data at input byte ${at}` };
  }
  return Buffer.from(value, 'base64').toString('utf8');
}
