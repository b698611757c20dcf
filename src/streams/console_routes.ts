// The web console in streams mode: its page at `/ui`, a lint-only check of a stream config for the
// editor (`/ui/lint`, nothing applied), and the playground's mapping runner (`/ui/execute`). Same
// server, so the same basic auth and cross-site refusals as the API; the page itself forbids
// framing and any script or connection but its own.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readStreamBodySliced } from '../config/api_body_sliced.js';
import { CONSOLE_PAGE } from '../console/page.js';
import type { EndpointHandler } from '../engine/context.js';
import { errorMessage } from '../engine/errors.js';
import {
  jsonResponse,
  type RegisterRoute,
  type RouteDeclaration,
  registerDeclared,
  textError,
} from '../engine/route_declaration.js';
import { TimeSlicer } from '../engine/time_slicer.js';
import { HttpError } from '../listener/http_error.js';
import { sendJson } from '../listener/respond.js';
import { EXECUTE_ROUTE, handleExecute } from '../playground/routes.js';
import type { StreamsApiContext } from './api_context.js';
import { LINT_ERRORS } from './api_schemas.js';
import { readText } from './request.js';

/** Inline script and style only; fetches to this server only; never inside another site's frame. */
const PAGE_POLICY =
  "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

export const CONSOLE_ROUTE: RouteDeclaration = {
  path: '/ui',
  description: 'The web console: streams, resources, dynamic outputs and a Bloblang playground.',
  tag: 'console',
  operations: {
    get: {
      summary: 'The console page (GET or HEAD); it drives this same API from the browser.',
      responses: {
        200: {
          description: 'The page.',
          contentType: 'text/html; charset=utf-8',
          schema: { type: 'string' },
        },
        405: textError('A method other than GET or HEAD.'),
      },
    },
  },
};

export const CONSOLE_LINT_ROUTE: RouteDeclaration = {
  path: '/ui/lint',
  description: 'Lints a stream config without applying it (the console editor).',
  tag: 'console',
  operations: {
    post: {
      summary: 'The lints a POST /streams/{id} of this body would answer with; nothing is created.',
      body: {
        description: 'One stream config, YAML or JSON.',
        required: true,
        content: { 'application/yaml': { type: 'string' } },
      },
      responses: {
        200: jsonResponse(
          'Every lint as `(<line>,<col>) <message>`; an empty list when the config lints clean. A body that is not YAML gives its parse error as the one entry.',
          LINT_ERRORS,
        ),
        405: textError('A method other than POST.'),
        413: textError('The body is over the API body limit.'),
      },
    },
  },
};

export function registerConsole(register: RegisterRoute, ctx: StreamsApiContext): void {
  registerDeclared(register, CONSOLE_ROUTE, servePage);
  registerDeclared(register, CONSOLE_LINT_ROUTE, lintHandler(ctx));
  registerDeclared(register, { ...EXECUTE_ROUTE, path: '/ui/execute', tag: 'console' }, (req, res) =>
    handleExecute(req, res),
  );
}

function servePage(req: IncomingMessage, res: ServerResponse): void {
  if (req.method !== 'GET' && req.method !== 'HEAD') throw new HttpError(405, 'Method Not Allowed');
  res.statusCode = 200;
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Content-Security-Policy', PAGE_POLICY);
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.end(req.method === 'HEAD' ? undefined : CONSOLE_PAGE);
}

function lintHandler(ctx: StreamsApiContext): EndpointHandler {
  return async (req, res) => {
    if (req.method !== 'POST') throw new HttpError(405, 'Method Not Allowed');
    const text = await readText(req, ctx.bodyLimitBytes);
    const options = {
      provider: ctx.provider,
      env: ctx.env,
      chilled: false,
      bloblang: ctx.bloblang,
      redpandaSection: ctx.redpandaSection,
    };
    let lints: string[];
    try {
      // The same queue as stream bodies: a burst of keystrokes cannot starve the API.
      const result = await ctx.bodyQueue.run('', () => readStreamBodySliced(text, options, new TimeSlicer()));
      lints = result.ok ? [] : result.lints;
    } catch (err) {
      lints = [asLint(errorMessage(err))];
    }
    sendJson(res, 200, { linting_errors: lints });
  };
}

/** A YAML error says `line 3: ...` (or `line 3, column 5: ...`): the lint form puts it at its line. */
function asLint(message: string): string {
  const at = /^line (\d+)(?:, column (\d+))?: /.exec(message);
  return at ? `(${at[1]},${at[2] ?? 1}) ${message.slice(at[0].length)}` : message;
}
