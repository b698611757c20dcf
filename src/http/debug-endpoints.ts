// `/debug/...` endpoints (only with debug_endpoints: true). Go's pprof paths have no Node equivalent
// and are left unregistered, so they answer 404.
import type { ServerResponse } from 'node:http';
import YAML from 'yaml';
import { scrubReportHeader } from '../config/scrub_command_line.js';
import {
  jsonResponse,
  type OperationDeclaration,
  type ResponseDeclaration,
  type RouteDeclaration,
  registerDeclared,
  textResponse,
} from '../engine/route_declaration.js';
import { sendJson, sendText } from '../listener/respond.js';
import type { RegisterEndpoint } from './builtin-endpoints.js';

const CONFIG_UNREADABLE = { description: 'The config could not be read (empty body).' };

function debugRoute(
  path: string,
  description: string,
  ok: ResponseDeclaration,
  failing = false,
): RouteDeclaration {
  const responses: OperationDeclaration['responses'] = failing
    ? { 200: ok, 502: CONFIG_UNREADABLE }
    : { 200: ok };
  const get = { summary: description, description: 'Answers every method alike.', responses };
  return { path, description, tag: 'debug', operations: { get } };
}

const CONFIG_JSON_ROUTE = debugRoute(
  '/debug/config/json',
  'Returns the loaded config as JSON.',
  jsonResponse('The loaded config, secrets scrubbed.', { type: 'object' }),
  true,
);
const CONFIG_YAML_ROUTE = debugRoute(
  '/debug/config/yaml',
  'Returns the loaded config as YAML.',
  {
    description: 'The loaded config, secrets scrubbed.',
    contentType: 'application/yaml',
    schema: { type: 'string' },
  },
  true,
);
const STACK_ROUTE = debugRoute(
  '/debug/stack',
  'Returns a snapshot of the current service stack trace.',
  textResponse('A diagnostic dump: stacks, heap, handles.'),
);

/** Returns the loaded service config with secrets scrubbed. */
export type SanitisedConfigSource = () => unknown;

export function registerDebugEndpoints(
  register: RegisterEndpoint,
  sanitisedConfig: SanitisedConfigSource,
): void {
  registerDeclared(register, CONFIG_JSON_ROUTE, (_req, res) => {
    const config = tryRead(sanitisedConfig);
    if (config.failed) return badGateway(res);
    sendJson(res, 200, config.value);
  });

  registerDeclared(register, CONFIG_YAML_ROUTE, (_req, res) => {
    const config = tryRead(sanitisedConfig);
    if (config.failed) return badGateway(res);
    res.statusCode = 200;
    res.setHeader('Content-Type', 'application/yaml');
    res.end(YAML.stringify(config.value));
  });

  registerDeclared(register, STACK_ROUTE, (_req, res) => {
    sendText(res, 200, diagnosticDump());
  });
}

function tryRead(source: SanitisedConfigSource): { failed: false; value: unknown } | { failed: true } {
  try {
    return { failed: false, value: source() };
  } catch {
    return { failed: true };
  }
}

function badGateway(res: ServerResponse): void {
  res.statusCode = 502;
  res.end();
}

/**
 * Node has one JS stack, so the closest thing to Go's goroutine dump is the diagnostic report: stacks,
 * heap, libuv handles, resource usage. Only those parts are kept (environment variables hold secrets).
 */
export function diagnosticDump(): string {
  const lines = [`pid ${process.pid}, node ${process.version}, uptime ${process.uptime().toFixed(1)}s`];
  lines.push(`active resources: ${process.getActiveResourcesInfo().join(', ') || 'none'}`);
  const report = process.report?.getReport();
  if (report && typeof report === 'object') lines.push('', JSON.stringify(withoutSecrets(report), null, 2));
  return `${lines.join('\n')}\n`;
}

const REPORT_SECTIONS = [
  'header',
  'javascriptStack',
  'javascriptHeap',
  'nativeStack',
  'resourceUsage',
  'libuv',
];

/** Keeps the diagnostic sections of a report and of its workers' reports (which nest full reports). */
function withoutSecrets(report: object): Record<string, unknown> {
  const source = report as Record<string, unknown>;
  const kept: Record<string, unknown> = {};
  for (const section of REPORT_SECTIONS) if (section in source) kept[section] = source[section];
  if ('header' in kept) kept.header = scrubReportHeader(kept.header);
  if (Array.isArray(source.workers)) {
    kept.workers = source.workers.map((w: unknown) => (w && typeof w === 'object' ? withoutSecrets(w) : w));
  }
  return kept;
}
