// Every rate_limit component, in one list the registry is built from. Add one import and one entry per component.
import type { ComponentSpec } from '../../config/spec.js';
import { spec as local } from './local.js';

// biome-ignore lint/suspicious/noExplicitAny: specs of differing config types share one list
export const rate_limits: ComponentSpec<any, any>[] = [local];
