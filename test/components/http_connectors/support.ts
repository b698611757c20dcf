// Builds components and streams from YAML the way `nekton run` does, against an optional real
// shared HTTP server, for the HTTP connector tests.
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { registry } from '../../../src/components/registry.js';
import { schemaProvider } from '../../../src/config/schema.js';
import { toServiceConfig } from '../../../src/config/service_config.js';
import { buildLineIndex, parseYaml, yamlToValue } from '../../../src/config/yaml_document.js';
import type { Input, Output, Processor } from '../../../src/engine/component.js';
import { Stream } from '../../../src/engine/stream.js';
import type { HttpServer } from '../../../src/http/server.js';
import { buildResources } from '../../../src/service/build_resources.js';
import { createTestEnv, type TestEnv } from '../../helpers/context.js';

const provider = schemaProvider(registry);

function serviceConfig(yaml: string) {
  const parsed = parseYaml(yaml, 'test.yaml');
  return toServiceConfig(yamlToValue(parsed), { provider, lines: buildLineIndex(parsed) });
}

/** The `input` of a YAML config, built and wrapped by the engine (reconnects, statuses). */
export async function buildInput(yaml: string): Promise<{ input: Input; testEnv: TestEnv }> {
  const config = serviceConfig(yaml);
  const testEnv = createTestEnv({ redpanda: config.redpanda });
  await buildResources(config, testEnv.builder, testEnv.resources);
  if (!config.stream) throw new Error('no stream sections');
  return { input: await testEnv.builder.buildInput(config.stream.input), testEnv };
}

/** A whole stream from YAML, its endpoints on `http` (the shared server), not yet running. */
export async function buildStream(yaml: string, http?: HttpServer): Promise<Stream> {
  const config = serviceConfig(yaml);
  const { builder, env, resources, abort } = createTestEnv({ endpoints: http });
  await buildResources(config, builder, resources);
  if (!config.stream) throw new Error('no stream sections');
  return Stream.build(config.stream, builder, env.logger, abort);
}

/** A node:http server on a free loopback port. */
export async function startServer(handler: RequestListener): Promise<{ server: Server; base: string }> {
  const server = createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

export function stopServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((r) => server.close(() => r()));
}

/** The output and pipeline processors of a YAML config, built by the engine (wrapped writers). */
export async function buildComponents(yaml: string): Promise<{ output: Output; processors: Processor[] }> {
  const config = serviceConfig(yaml);
  const { builder, resources } = createTestEnv();
  await buildResources(config, builder, resources);
  if (!config.stream) throw new Error('no stream sections');
  return {
    output: await builder.buildOutput(config.stream.output),
    processors: await builder.buildProcessors(config.stream.pipeline.processors),
  };
}
