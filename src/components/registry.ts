// The registry of every built-in component.
import { Registry } from '../engine/registry.js';
import { amqpSpecs } from './amqp/specs.js';
import { brokersSpecs } from './brokers/specs.js';
import { buffers } from './buffers/index.js';
import { caches } from './caches/index.js';
import { httpSpecs } from './http/specs.js';
import { inputs } from './inputs/index.js';
import { kafkaSpecs } from './kafka/specs.js';
import { mqttSpecs } from './mqtt/specs.js';
import { natsSpecs } from './nats/specs.js';
import { outputs } from './outputs/index.js';
import { processors } from './processors/index.js';
import { rate_limits } from './rate_limits/index.js';
import { redisSpecs } from './redis/specs.js';
import { scanners } from './scanners/index.js';
import { sqlSpecs } from './sql/specs.js';

export const registry = new Registry([
  ...inputs,
  ...buffers,
  ...processors,
  ...outputs,
  ...caches,
  ...rate_limits,
  ...scanners,
  // Connectors and brokers: each area keeps its own list so they can grow independently.
  ...brokersSpecs,
  ...redisSpecs,
  ...natsSpecs,
  ...amqpSpecs,
  ...mqttSpecs,
  ...sqlSpecs,
  ...httpSpecs,
  ...kafkaSpecs,
]);
