// Runs jq programs with jq-web (the jq C sources compiled to WebAssembly, loaded on first use).
// One jq run costs tens of milliseconds whatever its input, so the jq processor sends a whole
// batch through one run: each message is one input value, wrapped so that every input gives
// exactly one output line, `{"ok": [results...]}` or `{"err": error}`.
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';

/** What jq-web's module offers. */
export interface JqModule {
  /** Runs jq over `input` as `echo input | jq flags filter`; returns stdout, throws on a non-zero exit. */
  raw(input: string, filter: string, flags?: string[]): string | undefined;
}

const require = createRequire(import.meta.url);
let loading: Promise<JqModule> | null = null;
/** The module once loaded: lint then checks queries in this process. */
let loaded: JqModule | null = null;

/** The jq module, loaded once per process. */
export function jqModule(): Promise<JqModule> {
  loading ??= (require('jq-web') as Promise<JqModule>).then((jq) => {
    loaded = jq;
    return jq;
  });
  return loading;
}

// Builtins that would read other messages (input, inputs) or end the whole run (halt,
// halt_error) are shadowed so they fail only the message at hand, as they do in the reference.
const SHADOWED =
  'def input: error("No more inputs"); def inputs: empty; def halt: error(null); def halt_error: error(.); def halt_error($c): error(.);';

/**
 * Runs jq; jq-web leaves jq's exit status in process.exitCode (so a failed query would make
 * nekton exit non-zero later): the caller's value is put back.
 */
export function runJq(jq: JqModule, input: string, program: string, flags: string[]): string {
  const before = process.exitCode;
  try {
    return jq.raw(input, program, flags) ?? '';
  } finally {
    process.exitCode = before;
  }
}

/** The program run over a batch: each input `{"v": value, "m": metadata}` gives one line. */
export function batchProgram(query: string): string {
  return `${SHADOWED} .m as $metadata | .v | try {"ok": [ ${query}\n ]} catch {"err": .}`;
}

/** A program that compiles `query` (with $metadata bound) and runs nothing of it. */
function checkProgram(query: string): string {
  return `{} as $metadata | if false then ([ ${query}\n ]) else empty end`;
}

/** The first `jq: error...` line of jq's stderr, without the program echo that follows it. */
export function jqErrorText(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  const line = text.split('\n').find((l) => l.startsWith('jq: error'));
  return (line ?? text).replace(/^jq: error: /, '');
}

/** Compiles a query in the loaded module; throws the compile error. */
export async function checkQuery(query: string): Promise<void> {
  const jq = await jqModule();
  try {
    runJq(jq, 'null', checkProgram(query), ['-n', '-c']);
  } catch (err) {
    throw new Error(`error compiling jq query: ${jqErrorText(err)}`);
  }
}

// Lint is synchronous and jq loads asynchronously: lint compiles the query in a short-lived
// child process (a few hundred milliseconds, once per jq processor of a linted config).
// CommonJS (jq-web is a CommonJS module): the CLI bundle refuses any literal dynamic import.
const CHECK_SCRIPT = `
(async () => {
  const loaded = require(process.argv[1]);
  const jq = await (loaded.default ?? loaded);
  let query = '';
  for await (const chunk of process.stdin) query += chunk;
  try { jq.raw('null', query, ['-n', '-c']); } catch (err) { process.stdout.write(String(err.message)); }
  process.exitCode = 0;
})();
`;

// Lint runs again on every reload and API update: a query is checked once per process.
const checked = new Map<string, string | null>();

/** The compile error of a query, or null when it compiles; synchronous, for lint. */
export function queryProblemSync(query: string): string | null {
  const known = checked.get(query);
  if (known !== undefined) return known;
  const problem = loaded !== null ? checkLoaded(loaded, query) : checkInChild(query);
  if (checked.size >= 256) checked.clear();
  if (problem !== undefined) checked.set(query, problem);
  return problem ?? null;
}

function checkLoaded(jq: JqModule, query: string): string | null {
  try {
    runJq(jq, 'null', checkProgram(query), ['-n', '-c']);
    return null;
  } catch (err) {
    return `error compiling jq query: ${jqErrorText(err)}`;
  }
}

/** The compile error, null when it compiles, undefined when the check could not run. */
export function checkInChild(query: string): string | null | undefined {
  let out: string;
  try {
    out = execFileSync(process.execPath, ['--input-type=commonjs', '-e', CHECK_SCRIPT, pathToJqWeb()], {
      input: checkProgram(query),
      timeout: 20_000,
      encoding: 'utf8',
      stdio: ['pipe', 'pipe', 'ignore'],
    });
  } catch {
    // The checker itself could not run (no jq-web, a timeout): leave the query to the build.
    return undefined;
  }
  return out === '' ? null : `error compiling jq query: ${jqErrorText(out)}`;
}

function pathToJqWeb(): string {
  return require.resolve('jq-web');
}
