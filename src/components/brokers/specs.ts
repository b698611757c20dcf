// The brokers components, in one list the registry includes. Add one import and one entry per component.
import type { ComponentSpec } from '../../config/spec.js';
import { spec as brokerInput } from '../inputs/broker.js';
import { spec as dynamicInput } from '../inputs/dynamic.js';
import { spec as resourceInput } from '../inputs/resource.js';
import { spec as sequenceInput } from '../inputs/sequence.js';
import { spec as brokerOutput } from '../outputs/broker.js';
import { spec as dynamicOutput } from '../outputs/dynamic.js';
import { spec as resourceOutput } from '../outputs/resource.js';
import { spec as resourceProcessor } from '../processors/resource.js';

// biome-ignore lint/suspicious/noExplicitAny: specs of differing config types share one list
export const brokersSpecs: ComponentSpec<any, any>[] = [
  brokerInput,
  dynamicInput,
  resourceInput,
  sequenceInput,
  brokerOutput,
  dynamicOutput,
  resourceOutput,
  resourceProcessor,
];
