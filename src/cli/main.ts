// The `nekton` command line: argv -> one of run (normal mode), streams, lint, test, list, blobl,
// echo, create, docs.
import { isMainThread, workerData } from 'node:worker_threads';
import { Command, InvalidArgumentError, Option } from 'commander';
import { ConfigError } from '../engine/errors.js';
import { isLogLevel, LOG_LEVEL_NAMES } from '../engine/log_levels.js';
import { buildInfo } from '../http/version.js';
import { addOpenApiCommand } from './openapi_command.js';
import { addPluginCommands } from './plugin_command.js';
import { prestartThreadsFor } from './thread_prestart.js';

/** Options every command understands (also accepted before the subcommand, as Benthos allows). */
export interface GlobalOptions {
  config?: string;
  set: string[];
  envFile: string[];
  resources: string[];
  chilled: boolean;
  logLevel?: string;
  /** `-t` template file globs. */
  templates: string[];
  /** `-w`: reload the config when its files change (normal and streams mode). */
  watcher: boolean;
  /** `--plugin` modules, loaded before the command runs. */
  plugins: string[];
}

const collect = (value: string, previous: string[]) => [...previous, value];

function globalOptions(command: Command): GlobalOptions {
  const opts = command.optsWithGlobals() as Record<string, unknown>;
  return {
    config: opts.config as string | undefined,
    set: (opts.set as string[]) ?? [],
    envFile: (opts.envFile as string[]) ?? [],
    resources: (opts.resources as string[]) ?? [],
    chilled: Boolean(opts.chilled),
    logLevel: opts['log.level'] as string | undefined,
    templates: (opts.templates as string[]) ?? [],
    watcher: Boolean(opts.watcher),
    plugins: (opts.plugin as string[]) ?? [],
  };
}

/**
 * Subcommands whose own short flags clash with the global ones (`blobl -r` is --raw, not
 * --resources; `create -s` is --small, not --set): after their name, options are theirs.
 */
const OWN_FLAG_COMMANDS = new Set(['blobl', 'create']);
const GLOBAL_VALUE_FLAGS = new Set([
  '-c',
  '--config',
  '-s',
  '--set',
  '-e',
  '--env-file',
  '-r',
  '--resources',
  '-t',
  '--templates',
  '--log.level',
]);

/** The subcommand argv names (the first argument that is not an option or an option's value). */
export function subcommandOf(args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') return args[i + 1];
    if (!arg.startsWith('-')) return arg;
    if (GLOBAL_VALUE_FLAGS.has(arg)) i++;
  }
  return undefined;
}

async function runConfig(file: string | undefined, options: GlobalOptions): Promise<number> {
  if (!file) {
    process.stderr.write(
      'nekton: no config given: use `nekton -c config.yaml` or `nekton run config.yaml`\n',
    );
    return 1;
  }
  // Before the config is loaded: a pipeline thread it asks for boots meanwhile, on an idle core.
  prestartThreadsFor(file, options.set);
  const { loadService } = await import('./load_service.js');
  const { runNormalMode } = await import('./normal_mode.js');
  const loaded = await loadService(file, options);
  if (!loaded) return 1;
  const reload = options.watcher
    ? { paths: [file, ...options.resources], load: () => loadService(file, options) }
    : undefined;
  return runNormalMode(loaded, reload);
}

export function buildProgram(): Command {
  const program = new Command();
  program
    // `nekton streams --help` lists -s, -e, -r, --chilled and --log.level too: they apply there.
    .configureHelp({ showGlobalOptions: true })
    .name('nekton')
    .description('A data-stream processor that runs Benthos / Redpanda Connect configs.')
    .version(buildInfo().version, '-v, --version')
    .option('-c, --config <file>', 'a config file to run (normal mode)')
    .option('-s, --set <path=value>', 'override a config field (repeatable)', collect, [])
    .option(
      '-e, --env-file <file>',
      'load environment variables from a dotenv file (repeatable)',
      collect,
      [],
    )
    .option('-r, --resources <glob>', 'load resources from extra config files (repeatable)', collect, [])
    .option('--chilled', 'run even when the config has lint errors', false)
    .option(
      '-w, --watcher',
      'reload the config when it (or a -r file) changes; a bad file is logged and the running stream kept',
      false,
    )
    .option(
      '--plugin <module>',
      'load components from an ES module: a path or a package name (repeatable)',
      collect,
      [],
    )
    .option('-t, --templates <glob>', 'load component templates from files (repeatable)', collect, [])
    .addOption(
      new Option(
        '--log.level <level>',
        `override the log level: ${LOG_LEVEL_NAMES.join(', ')} (any case)`,
      ).argParser(parseLogLevel),
    )
    .action(async (_opts, command: Command) => {
      // With an action of its own, commander takes a mistyped subcommand for an argument.
      if (command.args.length > 0) command.error(`error: unknown command '${command.args[0]}'`);
      const options = globalOptions(command);
      if (!options.config) {
        program.help();
        return;
      }
      process.exitCode = await runConfig(options.config, options);
    });

  program
    .command('run [config]')
    .description('run one stream from a config file (normal mode)')
    .action(async (file: string | undefined, _opts, command: Command) => {
      const options = globalOptions(command);
      process.exitCode = await runConfig(file ?? options.config, options);
    });

  program
    .command('lint <files...>')
    .description('lint config files; prints FILE(line,col) message per problem, exits 1 if any')
    .option('--deprecated', 'report deprecated components and fields', false)
    .option('--labels', 'report components that have no label', false)
    .option(
      '--skip-env-var-check',
      'do not report environment variables without a default that are not set',
      false,
    )
    .option('--verbose', 'print FILE: OK or FILE: FAILED for each file linted', false)
    .action(async (files: string[], opts: Record<string, boolean>, command: Command) => {
      const { lintFiles } = await import('./lint_command.js');
      process.exitCode = await lintFiles(files, globalOptions(command), opts);
    });

  program
    .command('test [paths...]')
    .description(
      'run the unit tests of configs (`tests:` sections and *_benthos_test.yaml files); exits 1 if any fails',
    )
    .option('--log <level>', 'let components log at this level to stdout (off by default)', parseLogLevel)
    .option(
      '--verbose',
      'print the name of each test case before it runs (the reference also takes -v, which is --version here)',
      false,
    )
    .action(async (paths: string[], opts: { log?: string; verbose: boolean }, command: Command) => {
      const { runTestCommand } = await import('./test_command/command.js');
      const global = globalOptions(command);
      process.exitCode = await runTestCommand({
        paths,
        log: opts.log,
        verbose: opts.verbose,
        resources: global.resources,
        sets: global.set,
        envFiles: global.envFile,
        templates: global.templates,
      });
    });

  program
    .command('list [kinds...]')
    .description(
      'list the available components, optionally of some kinds (inputs, processors, outputs, caches, rate-limits, buffers, metrics, tracers, scanners, bloblang-functions, bloblang-methods)',
    )
    .option('--format <format>', 'text, json, jsonschema or cue', 'text')
    .option('--status <status>', 'only components of this status: stable, beta, experimental or deprecated')
    .action(async (kinds: string[], opts: { format: string; status?: string }, command: Command) => {
      const { listComponents } = await import('./list_command.js');
      process.exitCode = await listComponents(kinds, {
        ...opts,
        templates: globalOptions(command).templates,
      });
    });

  program
    .command('template')
    .description('work with component templates')
    .command('lint [paths...]')
    .description(
      'lint template files and run their tests; prints FILE(line,col) message per problem, exits 1 if any',
    )
    .option('--verbose', 'print FILE: OK or FILE: FAILED for each file linted', false)
    .action(async (paths: string[], opts: { verbose: boolean }, command: Command) => {
      const { lintTemplates } = await import('./template_lint_command.js');
      process.exitCode = await lintTemplates(paths, { ...opts, templates: globalOptions(command).templates });
    });

  const blobl = program
    .command('blobl [mapping]')
    .description('run a Bloblang mapping against each line of stdin (or --input)')
    // `blobl server -p` is the port, `blobl -p` is --pretty: options after `server` are its own.
    .enablePositionalOptions()
    .option(
      '-t, --threads <n>',
      "accepted for the reference's sake: mappings run on one thread, in order",
      parsePositiveInt,
      1,
    )
    .option('-r, --raw', 'consume raw strings: `this` is each line as a string, never parsed as JSON', false)
    .option('-p, --pretty', 'pretty-print structured output (two-space indents)', false)
    .option('-f, --file <file>', 'read the mapping from a file')
    .option('-i, --input <file>', 'read input from a file instead of stdin')
    .option('--max-token-length <bytes>', 'the longest input line accepted', parsePositiveInt, 64 * 1024)
    .option(
      '-e, --env-file <file>',
      'import environment variables from a dotenv file (repeatable)',
      collect,
      [],
    )
    .action(async (mapping: string | undefined, opts: BloblFlags, command: Command) => {
      const { runBlobl } = await import('./blobl.js');
      const envFiles = [...globalOptions(command.parent!).envFile, ...opts.envFile];
      const { loadEnvFiles } = await import('../config/env_file.js');
      // As the reference does: the mapping's env() and ${VAR} references see the files' variables.
      Object.assign(process.env, await loadEnvFiles(envFiles));
      process.exitCode = await runBlobl(
        {
          mapping,
          file: opts.file,
          input: opts.input,
          raw: opts.raw,
          pretty: opts.pretty,
          maxTokenLength: opts.maxTokenLength,
        },
        { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr },
      );
    });
  blobl
    .command('server')
    .description('serve the Bloblang playground web page (for local use only)')
    .option('--host <host>', 'the host to bind to', 'localhost')
    .option('-p, --port <port>', 'the port to bind to', '4195')
    .option('--address <host:port>', "host and port in one (nekton's older flag; wins over --host/--port)")
    .option('-n, --no-open', 'do not open the page in a browser (never opened without a display)')
    .option('-m, --mapping-file <file>', 'a mapping file to start the page with')
    .option('-i, --input-file <file>', 'an input file to start the page with')
    .option(
      '-w, --write',
      "write the page's mapping and input back to those files (created if missing)",
      false,
    )
    .action(async (opts: PlaygroundFlags) => {
      const { runPlayground } = await import('./playground.js');
      process.exitCode = await runPlayground(opts);
    });

  program
    .command('echo [config]')
    .description('print the config with defaults filled, env vars resolved and secrets scrubbed')
    .action(async (file: string | undefined, _opts, command: Command) => {
      const { echoConfig } = await import('./echo_command.js');
      const options = globalOptions(command);
      process.exitCode = await echoConfig(file ?? options.config, options);
    });

  program
    .command('create [expression]')
    .description('print a new config for inputs/processors/outputs, e.g. `create stdin/mapping,log/stdout`')
    .option('-s, --small', 'only input, buffer, pipeline and output, without advanced fields', false)
    .action(async (expression: string | undefined, opts: { small: boolean }) => {
      const { createConfig } = await import('./create_command.js');
      process.exitCode = createConfig(expression, opts.small);
    });

  program
    .command('streams [paths...]')
    .description('run streams mode: many streams managed over a REST API')
    .option('-o, --observability <file>', 'service-wide config (http, logger, metrics, resources)')
    .option('--no-api', 'register only /ready, no /streams or /resources endpoints')
    .option('--prefix-stream-endpoints <bool>', 'put component endpoints under /<stream id>', 'true')
    .option('-w, --watcher', 'watch stream files and apply changes', false)
    .option(
      '--store <url>',
      'keep API-made streams and resources across restarts: file:DIR, postgres://..., nats://HOST:PORT/BUCKET',
    )
    .option('--cluster', 'run as one node of a fleet sharing the --store (postgres:// or nats://)')
    .option('--node-id <id>', "this node's name in the fleet (default: host name and HTTP port)")
    .option(
      '--advertise-address <host:port>',
      'where other fleet nodes reach this one (default: the HTTP address)',
    )
    .option(
      '--lease-ttl <duration>',
      "a stream's lease time in a fleet: fail-over happens within it (default 10s)",
    )
    .option(
      '--max-body-size <bytes>',
      'largest request body the API accepts (larger is 413); suffixes KiB, MiB',
      parseByteSize,
      1024 * 1024,
    )
    .action(async (paths: string[], opts: Record<string, unknown>, command: Command) => {
      const { runStreamsCommand } = await import('../streams/command.js');
      const global = globalOptions(command);
      process.exitCode = await runStreamsCommand({
        paths,
        observability: (opts.observability as string | undefined) ?? global.config,
        api: opts.api !== false,
        prefixStreamEndpoints: opts.prefixStreamEndpoints !== 'false',
        // The root's -w takes `streams -w` before the subcommand sees it; either means watch.
        watch: Boolean(opts.watcher) || global.watcher,
        bodyLimitBytes: opts.maxBodySize as number,
        chilled: global.chilled,
        sets: global.set,
        envFiles: global.envFile,
        resources: global.resources,
        logLevel: global.logLevel,
        templates: global.templates,
        store: opts.store as string | undefined,
        cluster: {
          enabled: opts.cluster === true ? true : undefined,
          nodeId: opts.nodeId as string | undefined,
          advertiseAddress: opts.advertiseAddress as string | undefined,
          leaseTtl: opts.leaseTtl as string | undefined,
        },
      });
    });

  program
    .command('docs [dir]')
    .description('write the component reference (Markdown) into a directory')
    .action(async (dir: string | undefined) => {
      const { writeComponentDocs } = await import('./docs_command.js');
      process.exitCode = await writeComponentDocs(dir ?? 'docs/components');
    });

  addOpenApiCommand(program);

  addPluginCommands(program, (action) => globalOptions(action).plugins);

  // Set last: subcommands copy this setting from the program when they are added.
  program.allowExcessArguments(true);
  return program;
}

interface BloblFlags {
  threads: number;
  raw: boolean;
  pretty: boolean;
  file?: string;
  input?: string;
  maxTokenLength: number;
  envFile: string[];
}

interface PlaygroundFlags {
  host: string;
  port: string;
  address?: string;
  open: boolean;
  mappingFile?: string;
  inputFile?: string;
  write: boolean;
}

function parsePositiveInt(text: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('expected a whole number of at least 1');
  return n;
}

/** `--log.level` takes the names `logger.level` does; anything else is refused, not ignored. */
function parseLogLevel(level: string): string {
  if (!isLogLevel(level)) {
    throw new InvalidArgumentError(`expected one of ${LOG_LEVEL_NAMES.join(', ')}`);
  }
  return level;
}

/** `1048576`, `512KiB`, `10MiB`: a whole number of bytes. */
function parseByteSize(text: string): number {
  const match = /^(\d+)\s*(B|KiB|MiB|GiB)?$/i.exec(text.trim());
  if (!match) throw new InvalidArgumentError('expected a byte count such as 1048576, 512KiB or 10MiB');
  const unit = { b: 1, kib: 1024, mib: 1024 ** 2, gib: 1024 ** 3 }[(match[2] ?? 'b').toLowerCase()]!;
  return Number(match[1]) * unit;
}

async function main(): Promise<void> {
  try {
    const program = buildProgram();
    if (OWN_FLAG_COMMANDS.has(subcommandOf(process.argv.slice(2)) ?? '')) program.enablePositionalOptions();
    await program.parseAsync(process.argv);
  } catch (err) {
    // Config problems are the user's to fix: one clear line, no stack.
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
    } else {
      process.stderr.write(`nekton: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    }
    process.exitCode = 1;
  }
}

// A pipeline thread (engine/threads/pool.ts) starts from bin/nekton too, for its code cache: it runs
// the processors, not the command line.
if (!isMainThread && (workerData as { pipelineThread?: boolean } | null)?.pipelineThread)
  void import('../service/pipeline_thread.js');
else void main();
