// The `nekton` command line: argv -> one of run (normal mode), streams, lint, test, list, blobl, docs.
import { Command, InvalidArgumentError, Option } from 'commander';
import { ConfigError } from '../engine/errors.js';
import { isLogLevel, LOG_LEVEL_NAMES } from '../engine/log_levels.js';
import { buildInfo } from '../http/version.js';

/** Options every command understands (also accepted before the subcommand, as Benthos allows). */
export interface GlobalOptions {
  config?: string;
  set: string[];
  envFile: string[];
  resources: string[];
  chilled: boolean;
  logLevel?: string;
}

const collect = (value: string, previous: string[]) => [...previous, value];

/** Benthos's `-t`: nekton has no templates; say so instead of "unknown option". */
function refuseTemplates(): never {
  throw new InvalidArgumentError('templates are not supported by nekton');
}

function globalOptions(command: Command): GlobalOptions {
  const opts = command.optsWithGlobals() as Record<string, unknown>;
  return {
    config: opts.config as string | undefined,
    set: (opts.set as string[]) ?? [],
    envFile: (opts.envFile as string[]) ?? [],
    resources: (opts.resources as string[]) ?? [],
    chilled: Boolean(opts.chilled),
    logLevel: opts['log.level'] as string | undefined,
  };
}

async function runConfig(file: string | undefined, options: GlobalOptions): Promise<number> {
  if (!file) {
    process.stderr.write(
      'nekton: no config given: use `nekton -c config.yaml` or `nekton run config.yaml`\n',
    );
    return 1;
  }
  const { loadService } = await import('./load_service.js');
  const { runNormalMode } = await import('./normal_mode.js');
  const loaded = await loadService(file, options);
  if (!loaded) return 1;
  return runNormalMode(loaded);
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
    .option('-t, --templates <glob>', 'template files (not supported by nekton: refused)', refuseTemplates)
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
      });
    });

  program
    .command('list [kinds...]')
    .description(
      'list the available components, optionally of some kinds (inputs, processors, outputs, caches, rate-limits, buffers, metrics, tracers, scanners, bloblang-functions, bloblang-methods)',
    )
    .option('--format <format>', 'text, json, jsonschema or cue', 'text')
    .option('--status <status>', 'only components of this status: stable, beta, experimental or deprecated')
    .action(async (kinds: string[], opts: { format: string; status?: string }) => {
      const { listComponents } = await import('./list_command.js');
      process.exitCode = await listComponents(kinds, opts);
    });

  const blobl = program
    .command('blobl [mapping]')
    .description('run a Bloblang mapping against each line of stdin')
    .option('-f, --file <file>', 'read the mapping from a file')
    .action(async (mapping: string | undefined, opts: { file?: string }) => {
      const { runBlobl } = await import('./blobl.js');
      process.exitCode = await runBlobl(
        { mapping, file: opts.file },
        { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr },
      );
    });
  blobl
    .command('server')
    .description('serve the Bloblang playground web page')
    .option('--address <address>', 'host:port to listen on', '127.0.0.1:4195')
    .action(async (opts: { address: string }) => {
      const { runPlayground } = await import('./playground.js');
      await runPlayground(opts.address);
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
        watch: Boolean(opts.watcher),
        bodyLimitBytes: opts.maxBodySize as number,
        chilled: global.chilled,
        sets: global.set,
        envFiles: global.envFile,
        resources: global.resources,
        logLevel: global.logLevel,
        store: opts.store as string | undefined,
      });
    });

  program
    .command('docs [dir]')
    .description('write the component reference (Markdown) into a directory')
    .action(async (dir: string | undefined) => {
      const { writeComponentDocs } = await import('./docs_command.js');
      process.exitCode = await writeComponentDocs(dir ?? 'docs/components');
    });

  // Set last: subcommands copy this setting from the program when they are added.
  program.allowExcessArguments(true);
  return program;
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
    await buildProgram().parseAsync(process.argv);
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

void main();
