// Every input component, in one list the registry is built from. Add one import and one entry per component.
import type { ComponentSpec } from '../../config/spec.js';
import { spec as file } from './file.js';
import { spec as generate } from './generate.js';
import { spec as http_server } from './http_server.js';
import { spec as inproc } from './inproc.js';
import { spec as stdin } from './stdin.js';

// biome-ignore lint/suspicious/noExplicitAny: specs of differing config types share one list
export const inputs: ComponentSpec<any, any>[] = [file, generate, http_server, inproc, stdin];
