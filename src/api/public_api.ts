// Everything the package root exports, as one object: the CLI hands the same object to plugins
// (plugin_host.ts) so a plugin always registers into the nekton that loads it.
import { BloblangParseError, MappingError } from '../bloblang/index.js';
import { field } from '../config/spec.js';
import { ConfigError } from '../engine/errors.js';
import { installPluginHost } from '../plugins/plugin_host.js';
import { parseMapping } from './mapping.js';
import { Message } from './message.js';
import {
  registerBatchProcessor,
  registerBloblangFunction,
  registerBloblangMethod,
  registerCache,
  registerInput,
  registerOutput,
  registerProcessor,
  registerRateLimit,
} from './register.js';
import { Stream, StreamBuilder } from './stream_builder.js';

/** What the package root exports (and the CLI hands to plugins). */
export interface NektonApi {
  StreamBuilder: typeof StreamBuilder;
  Stream: typeof Stream;
  Message: typeof Message;
  field: typeof field;
  registerInput: typeof registerInput;
  registerOutput: typeof registerOutput;
  registerProcessor: typeof registerProcessor;
  registerBatchProcessor: typeof registerBatchProcessor;
  registerCache: typeof registerCache;
  registerRateLimit: typeof registerRateLimit;
  registerBloblangFunction: typeof registerBloblangFunction;
  registerBloblangMethod: typeof registerBloblangMethod;
  parseMapping: typeof parseMapping;
  ConfigError: typeof ConfigError;
  BloblangParseError: typeof BloblangParseError;
  MappingError: typeof MappingError;
}

const api: NektonApi = {
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
};

/** The API in use in this process: this one, unless a copy of nekton loaded earlier installed its own. */
export const nekton: NektonApi = installPluginHost(api);
