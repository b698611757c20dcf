// What an HTTP route promises: its operations with their query parameters, request body, status
// codes and response bodies. The code that registers a route hands the same declaration to the
// server, and the OpenAPI document (src/http/openapi.ts) is written from what is registered, so the
// two cannot drift. Lives in the engine layer because components register routes too.
import type { EndpointHandler } from './context.js';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** A JSON Schema (2020-12, as OpenAPI 3.1 uses). */
export type JsonSchema = Record<string, unknown>;

export interface ResponseDeclaration {
  description: string;
  /** Absent: the response has no body (or one nobody should rely on). */
  contentType?: string;
  schema?: JsonSchema;
  /** Other media types the same status may come in (a text error or a JSON lint list). */
  alternatives?: Record<string, JsonSchema>;
}

export interface ParameterDeclaration {
  name: string;
  description: string;
  schema: JsonSchema;
}

export interface BodyDeclaration {
  description: string;
  /** Media type → schema of the body in that type. */
  content: Record<string, JsonSchema>;
  required: boolean;
}

export interface OperationDeclaration {
  summary: string;
  description?: string;
  query?: ParameterDeclaration[];
  body?: BodyDeclaration;
  /** Status code → response; every code the handler can answer with (`default`: it decides). */
  responses: { [status: number]: ResponseDeclaration; default?: ResponseDeclaration };
}

/** Everything about a route but its path and one-line description (which registration takes). */
export interface RouteDoc {
  /** Groups routes in the document: `streams`, `resources`, `health`... */
  tag: string;
  /** Path placeholder → what it names (any string unless a schema narrows it). */
  params?: Record<string, string | { description: string; schema: JsonSchema }>;
  operations: Partial<Record<HttpMethod, OperationDeclaration>>;
}

export interface RouteDeclaration extends RouteDoc {
  path: string;
  description: string;
}

/** The text errors every handler writes (Go's http.Error): the message and one newline. */
export const TEXT_ERROR: ResponseDeclaration['schema'] = {
  type: 'string',
  description: 'The message followed by one newline.',
};

export function textError(description: string): ResponseDeclaration {
  return { description, contentType: 'text/plain; charset=utf-8', schema: TEXT_ERROR };
}

export function jsonResponse(description: string, schema: JsonSchema): ResponseDeclaration {
  return { description, contentType: 'application/json', schema };
}

export function textResponse(
  description: string,
  schema: JsonSchema = { type: 'string' },
): ResponseDeclaration {
  return { description, contentType: 'text/plain', schema };
}

/** 400 of a config body: a text error, or the lint gate's JSON list. */
export function badConfig(description: string, lintErrors: JsonSchema): ResponseDeclaration {
  return { ...textError(description), alternatives: { 'application/json': lintErrors } };
}

/** 200 with an empty body: what every successful mutation answers. */
export const EMPTY_OK: ResponseDeclaration = { description: 'Done (empty body).' };

/** Registers a route; with a doc it appears in the OpenAPI document as declared. */
export type RegisterRoute = (
  path: string,
  description: string,
  handler: EndpointHandler,
  doc?: RouteDoc,
) => void;

/** Registers a declared route: path and description come from the object the document reads. */
export function registerDeclared(
  register: RegisterRoute,
  route: RouteDeclaration,
  handler: EndpointHandler,
): void {
  const { path, description, ...doc } = route;
  register(path, description, handler, doc);
}
