// Declarations of the streams-mode routes (spec §3 with the nekton decisions): api.ts registers
// each handler with its declaration, and the OpenAPI document is written from them.
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: descriptions name the ${VAR} syntax
import {
  badConfig,
  EMPTY_OK,
  jsonResponse,
  type ParameterDeclaration,
  type RouteDeclaration,
  textError,
  textResponse,
} from '../engine/route_declaration.js';
import {
  LINT_ERRORS,
  RESOURCE_CONFIGS,
  RESOURCE_IN_USE,
  RESOURCE_TYPE,
  STREAM_CONFIG,
  STREAM_DETAIL,
  STREAM_READINESS,
  STREAM_STATS,
  STREAM_SUMMARY,
} from './api_schemas.js';

const CHILLED: ParameterDeclaration = {
  name: 'chilled',
  description: '`true` skips the lint gate and tolerates missing environment variables.',
  schema: { enum: ['true', 'false'] },
};
const TIMEOUT: ParameterDeclaration = {
  name: 'timeout',
  description:
    'A Go duration bounding how long stopping the old instance may take; unparsable values are ignored.',
  schema: { type: 'string', examples: ['5s'] },
};
const FORCE: ParameterDeclaration = {
  name: 'force',
  description: '`true` removes the resource even when streams use it.',
  schema: { enum: ['true', 'false'] },
};

const BAD_REQUEST = badConfig(
  'The request is wrong: `Error: <detail>` as text, or `{"linting_errors": [...]}` as JSON when the config does not lint.',
  LINT_ERRORS,
);
const VERB = textError('Another method: `Error: verb not supported: <METHOD>`.');
const NO_STREAM = textError('`Stream not found`.');
const SERVER_SIDE = textError('The stream could not be built, started or stopped: `Error: <detail>`.');
const NOT_RUNNING = textError('The stream has finished: nothing to pause or resume.');
const NO_RESOURCE = textError('`Resource not found`.');
const BAD_TYPE = textError('The type is not one of `cache`, `input`, `output`, `processor`, `rate_limit`.');

const STREAM_BODY = {
  description: 'One stream config, YAML or JSON. `${VAR}` references are expanded from the environment.',
  required: true,
  content: { 'application/yaml': { type: 'string' }, 'application/json': STREAM_CONFIG },
};
const STREAM_ID = { id: 'The stream id.' };
const RESOURCE_KIND = { description: 'The resource kind.', schema: RESOURCE_TYPE };
const RESOURCE_PARAMS = { type: RESOURCE_KIND, id: 'The resource name.' };

export const READY_ROUTE: RouteDeclaration = {
  path: '/ready',
  description:
    'Returns 200 when every running stream is connected, otherwise 503 naming the streams that are not.',
  tag: 'health',
  operations: {
    get: {
      summary: 'Readiness of every running stream.',
      description: 'Answers every method alike.',
      responses: {
        200: textResponse('`OK`.', { const: 'OK' }),
        503: textError('`streams <id>, <id> are not connected`, ids ascending.'),
      },
    },
  },
};

export const STREAMS_ROUTE: RouteDeclaration = {
  path: '/streams',
  description: 'GET: list all streams. POST: replace the whole set of streams.',
  tag: 'streams',
  operations: {
    get: {
      summary: 'Every stream with its state and uptime.',
      responses: {
        200: jsonResponse('Stream id → summary.', { type: 'object', additionalProperties: STREAM_SUMMARY }),
        400: textError('Another method: `Error: method not supported`.'),
      },
    },
    post: {
      summary: 'Makes the set of streams equal to the body: creates, updates and deletes, all or nothing.',
      query: [CHILLED],
      body: {
        description: 'Stream id → stream config, YAML or JSON; empty deletes every stream.',
        required: false,
        content: {
          'application/yaml': { type: 'string' },
          'application/json': { type: 'object', additionalProperties: STREAM_CONFIG },
        },
      },
      responses: { 200: EMPTY_OK, 400: BAD_REQUEST, 413: textError('The body is too large.') },
    },
  },
};

export const STREAM_ROUTE: RouteDeclaration = {
  path: '/streams/{id}',
  description: 'Create (POST), read (GET), replace (PUT), merge-patch (PATCH) or delete (DELETE) one stream.',
  tag: 'streams',
  params: STREAM_ID,
  operations: {
    get: {
      summary: 'The stream: uptime, config, connection status, and why it is not ready.',
      responses: { 200: jsonResponse('The stream.', STREAM_DETAIL), 404: NO_STREAM },
    },
    post: {
      summary: 'Creates the stream.',
      query: [CHILLED],
      body: STREAM_BODY,
      responses: {
        200: EMPTY_OK,
        400: { ...BAD_REQUEST, description: `${BAD_REQUEST.description} Also \`Stream already exists\`.` },
        413: textError('The body is too large.'),
        502: SERVER_SIDE,
      },
    },
    put: {
      summary: 'Replaces the stream’s config; a config that fails leaves the running one in place.',
      query: [CHILLED, TIMEOUT],
      body: STREAM_BODY,
      responses: {
        200: EMPTY_OK,
        400: BAD_REQUEST,
        404: NO_STREAM,
        413: textError('The body is too large.'),
        502: SERVER_SIDE,
      },
    },
    patch: {
      summary: 'Merges the body into the stored config (RFC 7396 JSON merge patch), then updates like PUT.',
      query: [CHILLED, TIMEOUT],
      body: {
        description: 'An object, YAML or JSON; `null` removes a key. Not interpolated.',
        required: true,
        content: {
          'application/merge-patch+json': { type: 'object' },
          'application/yaml': { type: 'string' },
        },
      },
      responses: {
        200: EMPTY_OK,
        400: BAD_REQUEST,
        404: NO_STREAM,
        413: textError('The body is too large.'),
        502: SERVER_SIDE,
      },
    },
    delete: {
      summary: 'Stops and removes the stream.',
      query: [TIMEOUT],
      responses: { 200: EMPTY_OK, 404: NO_STREAM, 502: SERVER_SIDE },
    },
  },
};

export const STREAM_STATS_ROUTE: RouteDeclaration = {
  path: '/streams/{id}/stats',
  description: 'GET: the metrics of one stream.',
  tag: 'streams',
  params: STREAM_ID,
  operations: {
    get: {
      summary: 'The stream’s own metrics and its uptime in ns.',
      responses: { 200: jsonResponse('The metrics.', STREAM_STATS), 400: VERB, 404: NO_STREAM },
    },
  },
};

function lifecycleRoute(verb: 'pause' | 'resume'): RouteDeclaration {
  const summary =
    verb === 'pause'
      ? 'Stops reading the input; messages already read finish and are acknowledged as usual. Pausing a paused stream changes nothing.'
      : 'Reads the input again. Resuming a running stream changes nothing.';
  return {
    path: `/streams/{id}/${verb}`,
    description:
      verb === 'pause' ? 'POST: stop reading the stream’s input.' : 'POST: read the stream’s input again.',
    tag: 'streams',
    params: STREAM_ID,
    operations: {
      post: {
        summary,
        responses: { 200: EMPTY_OK, 400: VERB, 404: NO_STREAM, 409: NOT_RUNNING, 502: SERVER_SIDE },
      },
    },
  };
}

export const STREAM_PAUSE_ROUTE = lifecycleRoute('pause');
export const STREAM_RESUME_ROUTE = lifecycleRoute('resume');

export const RESOURCES_ROUTE: RouteDeclaration = {
  path: '/resources',
  description: 'GET: every shared resource, by type and name.',
  tag: 'resources',
  operations: {
    get: {
      summary: 'Every resource: type → name → config (secrets scrubbed).',
      responses: {
        200: jsonResponse('All resources.', { type: 'object', additionalProperties: RESOURCE_CONFIGS }),
        400: VERB,
      },
    },
  },
};

export const RESOURCES_OF_TYPE_ROUTE: RouteDeclaration = {
  path: '/resources/{type}',
  description: 'GET: the shared resources of one type, by name.',
  tag: 'resources',
  params: { type: RESOURCE_KIND },
  operations: {
    get: {
      summary: 'The resources of one type: name → config (secrets scrubbed).',
      responses: { 200: jsonResponse('Name → config.', RESOURCE_CONFIGS), 400: BAD_TYPE },
    },
  },
};

export const RESOURCE_ROUTE: RouteDeclaration = {
  path: '/resources/{type}/{id}',
  description: 'Create or replace (POST), read (GET) or remove (DELETE) a shared resource.',
  tag: 'resources',
  params: RESOURCE_PARAMS,
  operations: {
    get: {
      summary: 'The resource’s config as posted, secrets scrubbed.',
      responses: { 200: jsonResponse('The config.', { type: 'object' }), 400: BAD_TYPE, 404: NO_RESOURCE },
    },
    post: {
      summary: 'Creates or replaces the resource; streams that use it see the new one at once.',
      query: [CHILLED],
      body: {
        description: 'One component config of the type, YAML or JSON. `${VAR}` references are expanded.',
        required: true,
        content: { 'application/yaml': { type: 'string' }, 'application/json': { type: 'object' } },
      },
      responses: {
        200: EMPTY_OK,
        400: BAD_REQUEST,
        413: textError('The body is too large.'),
        502: SERVER_SIDE,
      },
    },
    delete: {
      summary: 'Removes the resource, unless streams use it.',
      query: [FORCE],
      responses: {
        200: EMPTY_OK,
        400: BAD_TYPE,
        404: NO_RESOURCE,
        409: jsonResponse('Streams use it (and `force` is not `true`): they are named.', RESOURCE_IN_USE),
        502: SERVER_SIDE,
      },
    },
  },
};

/** `/<id>/ready`, which the manager registers for each stream. */
export function streamReadyRoute(path: string): RouteDeclaration {
  return {
    path,
    description: 'Returns 200 when the stream is connected, 503 otherwise.',
    tag: 'health',
    operations: {
      get: {
        summary: 'Readiness of one stream, with the status of each input and output.',
        description: 'Answers every method alike.',
        responses: {
          200: jsonResponse('Connected.', STREAM_READINESS),
          503: jsonResponse('Not connected, or finished (`"error":"stream terminated"`).', STREAM_READINESS),
        },
      },
    },
  };
}
