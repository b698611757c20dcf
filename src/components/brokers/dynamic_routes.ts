// Declarations of a dynamic broker's routes under `{prefix}/inputs` or `{prefix}/outputs` (spec §6.4):
// what DynamicCrud registers and the OpenAPI document lists. Every failure there is 502.
import {
  badConfig,
  EMPTY_OK,
  jsonResponse,
  type RouteDeclaration,
  textError,
  textResponse,
} from '../../engine/route_declaration.js';

const ID = { id: 'The member id (its label).' };

export function dynamicRoutes(base: string, collection: 'inputs' | 'outputs'): RouteDeclaration[] {
  const noun = collection === 'inputs' ? 'input' : 'output';
  const tag = `dynamic ${collection}`;
  const notFound = textError(`No ${noun} with this id.`);
  const list: RouteDeclaration = {
    path: base,
    description: `List the dynamic ${noun}s with their uptime and config.`,
    tag,
    operations: {
      get: {
        summary: `Every ${noun} that runs or has a stored config.`,
        description: 'Answers every method alike.',
        responses: {
          200: jsonResponse('Id → uptime (or `stopped`) and config.', {
            type: 'object',
            additionalProperties: {
              type: 'object',
              required: ['uptime', 'config', 'config_raw'],
              properties: {
                uptime: { type: 'string', description: 'A Go duration, or `stopped`.' },
                config: { type: ['object', 'null'] },
                config_raw: { type: 'string', description: 'The stored config as YAML, secrets scrubbed.' },
              },
            },
          }),
          502: textError('A stored config could not be read.'),
        },
      },
    },
  };
  const item: RouteDeclaration = {
    path: `${base}/{id}`,
    description: `Read (GET), set (POST) or remove (DELETE) a dynamic ${noun}.`,
    tag,
    params: ID,
    operations: {
      get: {
        summary: `The stored config of one ${noun}.`,
        responses: {
          200: textResponse('The config as YAML, secrets scrubbed.'),
          404: notFound,
          502: textError('Never for GET; listed because every method shares the route.'),
        },
      },
      post: {
        summary: `Creates or replaces one ${noun}; a body identical to the last accepted one changes nothing.`,
        body: {
          description: `One ${noun} config, YAML or JSON (not linted, no env interpolation).`,
          required: true,
          content: { 'application/yaml': { type: 'string' }, 'application/json': { type: 'object' } },
        },
        responses: {
          200: EMPTY_OK,
          400: badConfig('The id is not a valid id (text), or the config has fields its type lacks (JSON).', {
            type: 'object',
            required: ['linting_errors'],
            properties: { linting_errors: { type: 'array', items: { type: 'string' } } },
          }),
          502: textError(`The ${noun} could not be parsed, built or swapped in: \`Error: <detail>\`.`),
        },
      },
      delete: {
        summary: `Stops and removes one ${noun} (an unknown id is fine).`,
        responses: { 200: EMPTY_OK, 502: textError(`The ${noun} did not stop.`) },
      },
    },
  };
  const uptime: RouteDeclaration = {
    path: `${base}/{id}/uptime`,
    description: `How long a dynamic ${noun} has been running.`,
    tag,
    params: ID,
    operations: {
      get: {
        summary: `How long the current instance has run, or \`stopped\`.`,
        description: 'Answers every method alike.',
        responses: { 200: textResponse('A Go duration such as `1.234s`, or `stopped`.'), 404: notFound },
      },
    },
  };
  return [list, item, uptime];
}
