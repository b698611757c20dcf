// The nats components, in one list the registry includes. Add one import and one entry per component.
import type { ComponentSpec } from '../../config/spec.js';
import { spec as natsKvCache } from '../caches/nats_kv.js';
import { spec as natsInput } from '../inputs/nats.js';
import { spec as natsJetStreamInput } from '../inputs/nats_jetstream.js';
import { spec as natsOutput } from '../outputs/nats.js';
import { spec as natsJetStreamOutput } from '../outputs/nats_jetstream.js';
import { spec as natsKvProcessor } from '../processors/nats_kv.js';

// biome-ignore lint/suspicious/noExplicitAny: specs of differing config types share one list
export const natsSpecs: ComponentSpec<any, any>[] = [
  natsInput,
  natsOutput,
  natsJetStreamInput,
  natsJetStreamOutput,
  natsKvCache,
  natsKvProcessor,
];
