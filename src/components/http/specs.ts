// The http components, in one list the registry includes. Add one import and one entry per component.
import type { ComponentSpec } from '../../config/spec.js';
import { spec as httpClientInput } from '../inputs/http_client.js';
import { spec as httpServerOutput } from '../outputs/http_server.js';
import { spec as httpProcessor } from '../processors/http.js';

// biome-ignore lint/suspicious/noExplicitAny: specs of differing config types share one list
export const httpSpecs: ComponentSpec<any, any>[] = [httpClientInput, httpServerOutput, httpProcessor];
