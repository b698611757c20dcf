// The kafka components, in one list the registry includes. Add one import and one entry per component.
import type { ComponentSpec } from '../../config/spec.js';
import { spec as kafkaInput } from '../inputs/kafka.js';
import { spec as kafkaFranzInput } from '../inputs/kafka_franz.js';
import { spec as redpandaInput } from '../inputs/redpanda.js';
import { spec as kafkaOutput } from '../outputs/kafka.js';
import { spec as kafkaFranzOutput } from '../outputs/kafka_franz.js';
import { spec as redpandaOutput } from '../outputs/redpanda.js';

// biome-ignore lint/suspicious/noExplicitAny: specs of differing config types share one list
export const kafkaSpecs: ComponentSpec<any, any>[] = [
  kafkaFranzInput,
  kafkaFranzOutput,
  kafkaInput,
  kafkaOutput,
  redpandaInput,
  redpandaOutput,
];
