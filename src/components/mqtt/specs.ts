// The mqtt components, in one list the registry includes. Add one import and one entry per component.
import type { ComponentSpec } from '../../config/spec.js';
import { spec as mqttInput } from '../inputs/mqtt.js';
import { spec as mqttOutput } from '../outputs/mqtt.js';

// biome-ignore lint/suspicious/noExplicitAny: specs of differing config types share one list
export const mqttSpecs: ComponentSpec<any, any>[] = [mqttInput, mqttOutput];
