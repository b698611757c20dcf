// The package root (`import { StreamBuilder } from 'nekton'`): the small, semver-stable surface.
// When a nekton is already running in this process (the CLI that loaded this module as a plugin's
// dependency), its API is used, so plugins register where the CLI looks; otherwise this copy's.
import type { NektonApi } from './public_api.js';

const running = (globalThis as unknown as Record<symbol, NektonApi | undefined>)[Symbol.for('nekton.api')];
const api: NektonApi = running ?? (await import('./public_api.js')).nekton;

export const {
  StreamBuilder,
  Stream,
  Message,
  field,
  registerInput,
  registerOutput,
  registerProcessor,
  registerBatchProcessor,
  registerCache,
  registerRateLimit,
  registerBloblangFunction,
  registerBloblangMethod,
  parseMapping,
  ConfigError,
  BloblangParseError,
  MappingError,
} = api;

export type StreamBuilder = import('./stream_builder.js').StreamBuilder;
export type Stream = import('./stream_builder.js').Stream;
export type Message = import('./message.js').Message;
export type ConfigError = import('../engine/errors.js').ConfigError;
export type BloblangParseError = import('../bloblang/errors.js').BloblangParseError;
export type MappingError = import('../bloblang/errors.js').MappingError;
export type { AnyField, ComponentStatus, ConfigOf, FieldOptions, FieldSpec } from '../config/spec.js';
export type { ConsumerFunc, ProducerFunc } from './func_components.js';
export type { CompiledMapping } from './mapping.js';
export type { Content } from './message.js';
export type { MetricLabels, MetricsSink } from './metrics_sink.js';
export type {
  PluginAck,
  PluginBatchProcessor,
  PluginCache,
  PluginContext,
  PluginDefinition,
  PluginInput,
  PluginOutput,
  PluginProcessor,
  PluginRateLimit,
  PluginRead,
  ProcessResult,
} from './plugin_shapes.js';
export type { NektonApi } from './public_api.js';
export type { BloblangFunctionDefinition, BloblangMethodDefinition, BloblangParam } from './register.js';
