// `nekton openapi`: prints the OpenAPI 3.1 document of streams mode, written from the same route
// declarations a running server's `GET /openapi.json` uses. With no streams running, a dynamic
// broker's routes are shown under a `{stream}` placeholder (a running server lists the real paths).
import type { Command } from 'commander';

export interface OpenApiCommandOptions {
  observability?: string;
  api: boolean;
  sets: string[];
}

export function addOpenApiCommand(program: Command): void {
  program
    .command('openapi')
    .description('print the OpenAPI 3.1 document of the streams-mode HTTP API')
    .option('-o, --observability <file>', 'service-wide config (http.root_path, metrics...) to describe')
    .option('--no-api', 'describe a server started with --no-api')
    .action(async (opts: Record<string, unknown>, command: Command) => {
      const global = command.optsWithGlobals() as { config?: string; set?: string[] };
      process.exitCode = await printOpenApi({
        observability: (opts.observability as string | undefined) ?? global.config,
        api: opts.api !== false,
        sets: global.set ?? [],
      });
    });
}

export async function printOpenApi(options: OpenApiCommandOptions): Promise<number> {
  const { errorMessage } = await import('../engine/errors.js');
  try {
    process.stdout.write(`${JSON.stringify(await openApiOfStreamsMode(options), null, 2)}\n`);
    return 0;
  } catch (err) {
    process.stderr.write(`${errorMessage(err)}\n`);
    return 1;
  }
}

/** The streams service assembled without listening or streams, asked for its document. */
export async function openApiOfStreamsMode(options: OpenApiCommandOptions): Promise<Record<string, unknown>> {
  const { startStreamsService } = await import('../streams/service.js');
  const { dynamicRoutes } = await import('../components/brokers/dynamic_routes.js');
  const { openApiDocument } = await import('../http/openapi.js');
  const service = await startStreamsService({
    paths: [],
    observability: options.observability,
    api: options.api,
    prefixStreamEndpoints: true,
    watch: false,
    chilled: false,
    // Nothing listens and nothing logs: only the registrations are wanted.
    sets: [...options.sets, 'http.enabled=false', 'logger.level=OFF'],
    envFiles: [],
    resources: [],
  });
  try {
    const placeholder = (collection: 'inputs' | 'outputs') =>
      dynamicRoutes(`/{stream}/${collection}`, collection).map(({ path, description, ...doc }) => ({
        path,
        description: `${description} (A \`dynamic\` broker of stream {stream}; its \`prefix\` goes before /${collection}.)`,
        doc: {
          ...doc,
          params: { ...doc.params, stream: 'The id of the stream that has the dynamic broker.' },
        },
      }));
    const routes = [...service.http.routes(), ...placeholder('inputs'), ...placeholder('outputs')];
    const version = (await import('../http/version.js')).buildInfo().version;
    return openApiDocument(routes, { version, rootPath: service.http.config.root_path });
  } finally {
    await service.stop();
  }
}
