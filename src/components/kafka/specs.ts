// The kafka components, in one list the registry includes. Add one import and one entry per component.
import type { ComponentSpec } from '../../config/spec.js';

// biome-ignore lint/suspicious/noExplicitAny: specs of differing config types share one list
export const kafkaSpecs: ComponentSpec<any, any>[] = [];
