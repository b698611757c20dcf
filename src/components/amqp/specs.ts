// The amqp components, in one list the registry includes. Add one import and one entry per component.
import type { ComponentSpec } from '../../config/spec.js';
import { spec as amqpInput } from '../inputs/amqp_0_9.js';
import { spec as amqpOutput } from '../outputs/amqp_0_9.js';

// biome-ignore lint/suspicious/noExplicitAny: specs of differing config types share one list
export const amqpSpecs: ComponentSpec<any, any>[] = [amqpInput, amqpOutput];
