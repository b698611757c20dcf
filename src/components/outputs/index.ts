// Every output component, in one list the registry is built from. Add one import and one entry per component.
import type { ComponentSpec } from '../../config/spec.js';
import { spec as cache } from './cache.js';
import { spec as drop } from './drop.js';
import { spec as fallback } from './fallback.js';
import { spec as file } from './file.js';
import { spec as http_client } from './http_client.js';
import { spec as inproc } from './inproc.js';
import { spec as reject } from './reject.js';
import { spec as retry } from './retry.js';
import { spec as stdout } from './stdout.js';
import { spec as switchOutput } from './switch.js';
import { spec as sync_response } from './sync_response.js';
import { spec as websocket } from './websocket.js';

// biome-ignore lint/suspicious/noExplicitAny: specs of differing config types share one list
export const outputs: ComponentSpec<any, any>[] = [
  retry,
  fallback,
  cache,
  drop,
  file,
  http_client,
  inproc,
  reject,
  stdout,
  switchOutput,
  sync_response,
  websocket,
];
