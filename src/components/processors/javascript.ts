// `javascript`: runs a JavaScript program once per message in an isolated V8 context (node:vm),
// with the reference's `benthos.v0_*` API to read and change the message and a time limit per run.
import { readFileSync } from 'node:fs';
import vm from 'node:vm';
import { defineComponent, field } from '../../config/spec.js';
import type { Processor } from '../../engine/component.js';
import { ConfigError, errorMessage } from '../../engine/errors.js';
import { flagged, processorErrorLog } from '../../engine/processor_helpers.js';
import { parseJson, stringifyJson } from '../../message/json.js';
import type { Batch } from '../../message/message.js';
import { Sandbox, type SandboxResult } from './javascript_sandbox.js';

/** How long one run of the program may take before it is stopped and the batch flagged. */
export const RUN_LIMIT_MS = 5000;
/** The heap a program's worker may use. */
const MEMORY_LIMIT_MB = 256;

const NEITHER = 'either the code or file field must be specified';
const BOTH = 'cannot specify both the code and file fields';

const fields = [
  field.string('code', 'An inline JavaScript program to run. One of `code` or `file` must be defined.', {
    optional: true,
  }),
  field.string(
    'file',
    'A file containing a JavaScript program to run. One of `code` or `file` must be defined.',
    {
      optional: true,
    },
  ),
  field.array(
    field.string(
      'global_folders',
      'List of folders that will be used to load modules from if the requested JS module is not found elsewhere.',
      { default: [] },
    ),
  ),
] as const;

function compile(code: string, filename: string): vm.Script {
  try {
    return new vm.Script(code, { filename });
  } catch (err) {
    throw new ConfigError(`compiling javascript code: ${errorMessage(err)}`);
  }
}

/** Metadata as the program reads it: strings as they are, other values as JSON. */
function metaJson(v: unknown): string {
  if (v === undefined) return 'null';
  if (v instanceof Uint8Array) return JSON.stringify(Buffer.from(v).toString('utf8'));
  try {
    return stringifyJson(v);
  } catch {
    return JSON.stringify(String(v));
  }
}

export interface JavascriptOptions {
  /** Overrides RUN_LIMIT_MS (tests use a short one). */
  runLimitMs?: number;
  /** Overrides the worker's heap cap, in MiB. */
  memoryMb?: number;
  /** Folders `require` looks in when a module is found nowhere else. */
  globalFolders?: string[];
}

type Logger = Record<'info' | 'warn' | 'error' | 'debug', (m: string) => void>;

/** The processor for a program (compiled once here to report syntax errors at build). */
export function javascriptProcessor(
  code: string,
  filename: string,
  logger: Logger,
  options: JavascriptOptions = {},
): Processor {
  compile(code, filename);
  const sandbox = new Sandbox(code, filename, {
    runLimitMs: options.runLimitMs ?? RUN_LIMIT_MS,
    memoryMb: options.memoryMb ?? MEMORY_LIMIT_MB,
    globalFolders: options.globalFolders ?? [],
    log: (level, text) => {
      if (level === 'warn' || level === 'error' || level === 'debug') logger[level](text);
      else logger.info(text);
    },
  });
  const logError = processorErrorLog(logger as never);
  return {
    async process(batch: Batch): Promise<Batch[]> {
      const inputs = batch.map((m) => ({
        text: m.text(),
        meta: [...m.metadata()].map(([k, v]) => [k, metaJson(v)] as [string, string]),
      }));
      let results: SandboxResult[];
      try {
        results = await sandbox.run(inputs);
      } catch (err) {
        // As in the reference, a failed run fails the whole batch: every message goes on
        // unchanged with the error flagged.
        const error = err instanceof Error ? err : new Error(String(err));
        logError(error);
        return [batch.map((m) => flagged(m, error))];
      }
      const out = batch.map((msg, i) => {
        const result = results[i];
        if (!result || (result.content === null && result.meta.length === 0)) return msg;
        const copy = msg.copy();
        if (result.content?.kind === 'string') copy.setBytes(result.content.value);
        else if (result.content?.kind === 'json') copy.setStructured(parseJson(result.content.value));
        for (const [k, v] of result.meta) copy.setMeta(k, parseJson(v));
        return copy;
      });
      return out.length > 0 ? [out] : [];
    },
    close: () => sandbox.close(),
  };
}

export const spec = defineComponent({
  name: 'javascript',
  kind: 'processor',
  status: 'stable',
  categories: ['Mapping'],
  summary: 'Executes a provided JavaScript code block or file for each message.',
  description: `The program runs once per message in a worker thread, inside an isolated V8 context (\`node:vm\`) that holds the
ECMAScript built-ins, a \`console\` (printed through the logger), the \`benthos\` object below and a
\`require\` of CommonJS modules, and nothing of the host: no \`process\`, no Node modules, no network. The context is
kept between runs, so state created at the global scope outlives one message; wrap the program in a
function (\`(() => { ... })()\`) so \`let\`/\`const\` declarations do not collide on the next run.

Each run may take at most ${RUN_LIMIT_MS / 1000} seconds and the worker's heap is capped at ${MEMORY_LIMIT_MB} MiB; a
program that runs longer (an endless loop, endless promise jobs) or runs out of memory is stopped, a
fresh worker takes its place and the batch goes on with every message flagged with the error.
Any error thrown by the program fails the batch the same way, as in the reference.

## Functions

- \`benthos.v0_msg_as_string()\`: the raw contents of the message as a string.
- \`benthos.v0_msg_set_string(value)\`: sets the contents of the message to a string.
- \`benthos.v0_msg_as_structured()\`: the message parsed as JSON; throws when it is not JSON.
- \`benthos.v0_msg_set_structured(value)\`: sets the message to a value of any type.
- \`benthos.v0_msg_exists_meta(name)\`: whether a metadata key exists.
- \`benthos.v0_msg_get_meta(name)\`: the value of a metadata key; throws \`key not found\`.
- \`benthos.v0_msg_set_meta(name, value)\`: sets a metadata key to a value.

## Modules

\`require\` loads \`.js\` and \`.json\` files as the reference's (goja_nodejs) does: a path starting
\`./\`, \`../\` or \`/\` relative to the requiring module (the program itself is in the working
directory, or where its \`file\` is), else from \`node_modules\` folders up from there, else from the
\`global_folders\`; a folder loads its \`package.json\` \`main\` or its index file. Modules run in the
program's own isolated context. \`require("console")\` is the console; Node's own modules (\`fs\`,
\`child_process\`, ...) are not there.

The reference's \`v0_fetch\` (a synchronous HTTP request) is not available: it throws.`,
  fields,
  examples: [
    {
      title: 'Simple mutation',
      config: `pipeline:
  processors:
    - javascript:
        code: 'benthos.v0_msg_set_string(benthos.v0_msg_as_string() + "hello world");'
`,
    },
    {
      title: 'Structured mutation',
      config: `pipeline:
  processors:
    - javascript:
        code: |
          (() => {
            let thing = benthos.v0_msg_as_structured();
            thing.num_keys = Object.keys(thing).length;
            delete thing["b"];
            benthos.v0_msg_set_structured(thing);
          })();
`,
    },
  ],
  lint: (config) => {
    const code = config.code ?? '';
    const file = config.file ?? '';
    if (code === '' && file === '') return [NEITHER];
    if (code !== '' && file !== '') return [BOTH];
    if (code !== '') {
      try {
        compile(code, 'main.js');
      } catch (err) {
        return [errorMessage(err)];
      }
    }
    return [];
  },
  build: (config, ctx): Processor => {
    const code = config.code ?? '';
    const file = config.file ?? '';
    if (code === '' && file === '') throw new ConfigError(NEITHER);
    if (code !== '' && file !== '') throw new ConfigError(BOTH);
    let source = code;
    if (file !== '') {
      try {
        source = readFileSync(file, 'utf8');
      } catch (err) {
        throw new ConfigError(`opening target file: ${errorMessage(err)}`);
      }
    }
    return javascriptProcessor(source, file === '' ? 'main.js' : file, ctx.logger, {
      globalFolders: config.global_folders,
    });
  },
});
