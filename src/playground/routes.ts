// The playground's two endpoints on an HttpServer: the page at `/` and the mapping runner at `/execute`.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { toJson } from '../bloblang/value.js';
import { errorMessage } from '../engine/errors.js';
import {
  jsonResponse,
  type RouteDeclaration,
  registerDeclared,
  textError,
} from '../engine/route_declaration.js';
import type { HttpServer } from '../http/server.js';
import { readBody } from '../listener/body.js';
import { HttpError } from '../listener/http_error.js';
import { type ExecuteRequest, executeMapping } from './execute.js';
import type { PlaygroundFiles } from './files.js';
import { PLAYGROUND_PAGE, playgroundPage } from './page.js';

/** Mapping, input and metadata together; enough for any document a person edits in a textarea. */
export const EXECUTE_BODY_LIMIT = 4 * 1024 * 1024;

const PAGE_ROUTE: RouteDeclaration = {
  path: '/',
  description: 'The Bloblang playground page.',
  tag: 'bloblang',
  operations: {
    get: {
      summary: 'The playground web page (GET or HEAD).',
      responses: {
        200: {
          description: 'The page.',
          contentType: 'text/html; charset=utf-8',
          schema: { type: 'string' },
        },
        404: textError('Any path below `/` but the page itself.'),
        405: textError('A method other than GET or HEAD.'),
      },
    },
  },
};

export const EXECUTE_ROUTE: RouteDeclaration = {
  path: '/execute',
  description: 'Runs a mapping against an input document.',
  tag: 'bloblang',
  operations: {
    post: {
      summary: 'Runs a Bloblang mapping against one input document and its metadata.',
      body: {
        description: 'The mapping, the input document and its metadata.',
        required: true,
        content: {
          'application/json': {
            type: 'object',
            required: ['mapping'],
            properties: {
              mapping: { type: 'string' },
              input: { type: 'string' },
              metadata: { oneOf: [{ type: 'object' }, { type: 'string' }, { type: 'null' }] },
            },
          },
        },
      },
      responses: {
        200: jsonResponse('The result, or why there is none (each field only when it applies).', {
          type: 'object',
          properties: {
            result: { type: 'string', description: 'The output document.' },
            metadata: { type: 'object' },
            deleted: { type: 'boolean', description: 'The mapping deleted the message.' },
            parse_error: {
              type: 'object',
              properties: {
                line: { type: 'integer' },
                column: { type: 'integer' },
                message: { type: 'string' },
              },
            },
            exec_error: { type: 'string' },
            metadata_error: { type: 'string' },
          },
        }),
        400: textError('The body is not a JSON object with a string `mapping`.'),
        405: textError('A method other than POST.'),
        413: textError('The body is over 4 MiB.'),
        415: textError('The content type is not `application/json`.'),
      },
    },
  },
};

/** `files`: the page starts from their texts and every run is handed to them (`blobl server --write`). */
export function registerPlayground(server: HttpServer, files?: PlaygroundFiles): void {
  const register = server.register.bind(server);
  registerDeclared(register, PAGE_ROUTE, (req, res) =>
    servePage(req, res, files ? playgroundPage(files.current()) : PLAYGROUND_PAGE),
  );
  registerDeclared(register, EXECUTE_ROUTE, (req, res) => handleExecute(req, res, files));
}

function servePage(req: IncomingMessage, res: ServerResponse, page: string): void {
  // `/nekton/` is a prefix mount and would otherwise answer every unknown path below it.
  const path = (req.url ?? '/').split('?')[0];
  if (path !== '/' && !path.endsWith('/nekton/')) throw new HttpError(404, '404 page not found');
  if (req.method !== 'GET' && req.method !== 'HEAD') throw new HttpError(405, 'Method Not Allowed');
  res.statusCode = 200;
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  res.end(req.method === 'HEAD' ? undefined : page);
}

/** The mapping runner; the streams-mode console serves it at `/ui/execute` too. */
export async function handleExecute(
  req: IncomingMessage,
  res: ServerResponse,
  files?: PlaygroundFiles,
): Promise<void> {
  if (req.method !== 'POST') throw new HttpError(405, 'Method Not Allowed');
  // A JSON content type forces a CORS preflight, so other web sites cannot drive a local playground.
  if (!/^application\/json\b/i.test(req.headers['content-type'] ?? '')) {
    throw new HttpError(415, 'the request body must be application/json');
  }
  const request = parseExecuteRequest(await readBody(req, EXECUTE_BODY_LIMIT));
  files?.update(request.mapping, request.input);
  const response = executeMapping(request);
  res.statusCode = 200;
  res.setHeader('Content-Type', 'application/json');
  // toJson, not JSON.stringify: metadata may hold bigints, bytes or timestamps.
  res.end(toJson(response));
}

function parseExecuteRequest(body: Buffer): ExecuteRequest {
  let value: unknown;
  try {
    value = JSON.parse(body.toString('utf8'));
  } catch (err) {
    throw new HttpError(400, `request body is not valid JSON: ${errorMessage(err)}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new HttpError(400, 'request body must be a JSON object');
  }
  const { mapping, input = '', metadata } = value as Record<string, unknown>;
  if (typeof mapping !== 'string') throw new HttpError(400, 'field "mapping" must be a string');
  if (typeof input !== 'string') throw new HttpError(400, 'field "input" must be a string');
  const metadataOk =
    metadata === undefined ||
    metadata === null ||
    typeof metadata === 'string' ||
    (typeof metadata === 'object' && !Array.isArray(metadata));
  if (!metadataOk) throw new HttpError(400, 'field "metadata" must be an object or a JSON string');
  return { mapping, input, metadata: (metadata ?? undefined) as ExecuteRequest['metadata'] };
}
