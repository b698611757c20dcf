// Every cache component, in one list the registry is built from. Add one import and one entry per component.
import type { ComponentSpec } from '../../config/spec.js';
import { spec as file } from './file.js';
import { spec as lru } from './lru.js';
import { spec as memory } from './memory.js';
import { spec as multilevel } from './multilevel.js';
import { spec as noop } from './noop.js';
import { spec as ristretto } from './ristretto.js';
import { spec as ttlru } from './ttlru.js';

// biome-ignore lint/suspicious/noExplicitAny: specs of differing config types share one list
export const caches: ComponentSpec<any, any>[] = [memory, file, lru, ttlru, ristretto, noop, multilevel];
