// The registry of every built-in component, built once from the one list in all.ts.
import { Registry } from '../engine/registry.js';
import * as all from './all.js';

export const registry = new Registry(Object.values(all));
