// The OpenAPI 3.1 document of a server, written from the routes registered on it right now: each
// route's declaration (src/engine/route_declaration.ts) gives its operations, so the document lists
// exactly what the router serves. A component's own endpoint (an `http_server` input's path) has no
// declaration: it is listed with what is known of it, its description, answering any method.
import type { OperationDeclaration, ResponseDeclaration, RouteDoc } from '../engine/route_declaration.js';
import type { Endpoint } from './endpoint_tier.js';

export interface OpenApiInfo {
  version: string;
  rootPath: string;
}

type Json = Record<string, unknown>;

/** What the document needs of a route. */
export type DocumentedRoute = Pick<Endpoint, 'path' | 'description' | 'doc'>;

export function openApiDocument(routes: readonly DocumentedRoute[], info: OpenApiInfo): Json {
  const paths: Json = {};
  const tags = new Set<string>();
  const ids = new Set<string>();
  for (const route of routes) {
    const doc = route.doc ?? componentDoc();
    tags.add(doc.tag);
    paths[route.path] = pathItem(route, doc, ids);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'nekton HTTP API',
      version: info.version,
      description: `Every path is also served under the root path \`${info.rootPath}\`. Errors are plain text (the message and a newline) unless a response says otherwise.`,
    },
    tags: [...tags].sort().map((name) => ({ name })),
    paths,
  };
}

function pathItem(route: DocumentedRoute, doc: RouteDoc, ids: Set<string>): Json {
  const item: Json = { summary: route.description };
  const names = placeholders(route.path);
  if (names.length > 0) {
    item.parameters = names.map((name) => {
      const declared = doc.params?.[name] ?? name;
      const { description, schema } =
        typeof declared === 'string' ? { description: declared, schema: { type: 'string' } } : declared;
      return { name, in: 'path', required: true, description, schema };
    });
  }
  for (const [method, operation] of Object.entries(doc.operations)) {
    const id = uniqueId(operationId(method, route.path), ids);
    item[method] = operationObject(id, doc.tag, operation as OperationDeclaration);
  }
  return item;
}

function operationObject(id: string, tag: string, op: OperationDeclaration): Json {
  const out: Json = { tags: [tag], summary: op.summary, operationId: id };
  if (op.description) out.description = op.description;
  if (op.query && op.query.length > 0) {
    out.parameters = op.query.map((q) => ({
      name: q.name,
      in: 'query',
      required: false,
      description: q.description,
      schema: q.schema,
    }));
  }
  if (op.body) {
    const content: Json = {};
    for (const [type, schema] of Object.entries(op.body.content)) content[type] = { schema };
    out.requestBody = { description: op.body.description, required: op.body.required, content };
  }
  const responses: Json = {};
  for (const [status, response] of Object.entries(op.responses)) responses[status] = responseObject(response);
  out.responses = responses;
  return out;
}

function responseObject(response: ResponseDeclaration): Json {
  if (!response.contentType) return { description: response.description };
  const content: Json = { [response.contentType]: { schema: response.schema ?? {} } };
  for (const [type, schema] of Object.entries(response.alternatives ?? {})) content[type] = { schema };
  return { description: response.description, content };
}

/** `{name}` segments, in order. */
export function placeholders(path: string): string[] {
  return [...path.matchAll(/\{([^{}/]+)\}/g)].map((m) => m[1]);
}

/** Unique per method and path: `get /streams/{id}/stats` → `get_streams_id_stats`. */
function operationId(method: string, path: string): string {
  const words = path.split(/[^A-Za-z0-9]+/).filter((w) => w !== '');
  return [method, ...words].join('_') || method;
}

function uniqueId(base: string, ids: Set<string>): string {
  let id = base;
  for (let n = 2; ids.has(id); n++) id = `${base}_${n}`;
  ids.add(id);
  return id;
}

/** An endpoint a component registered: its handler decides what it answers. */
function componentDoc(): RouteDoc {
  const responses = { default: { description: 'Whatever the component answers.' } };
  const operation = (summary: string): OperationDeclaration => ({ summary, responses });
  return {
    tag: 'stream endpoints',
    operations: {
      get: operation('Served by a component of a stream.'),
      post: operation('Served by a component of a stream.'),
    },
  };
}
