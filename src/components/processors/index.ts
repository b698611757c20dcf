// Every processor component, in one list the registry is built from. Add one import and one entry per component.
import type { ComponentSpec } from '../../config/spec.js';
import { spec as archive } from './archive.js';
import { spec as avro } from './avro.js';
import { spec as benchmark } from './benchmark.js';
import { spec as bloblang } from './bloblang.js';
import { spec as boundsCheck } from './bounds_check.js';
import { spec as branch } from './branch.js';
import { spec as cacheProcessor } from './cache.js';
import { spec as cached } from './cached.js';
import { spec as catchProcessor } from './catch.js';
import { spec as compress } from './compress.js';
import { spec as decompress } from './decompress.js';
import { spec as dedupe } from './dedupe.js';
import { spec as forEach } from './for_each.js';
import { spec as groupByValue } from './group_by_value.js';
import { spec as insertPart } from './insert_part.js';
import { spec as jsonSchema } from './json_schema.js';
import { spec as log } from './log.js';
import { spec as mapping } from './mapping.js';
import { spec as metric } from './metric.js';
import { spec as msgpack } from './msgpack.js';
import { spec as mutation } from './mutation.js';
import { spec as noop } from './noop.js';
import { spec as parallel } from './parallel.js';
import { spec as processorsProcessor } from './processors.js';
import { spec as protobufProcessor } from './protobuf.js';
import { spec as rateLimitProcessor } from './rate_limit.js';
import { spec as selectParts } from './select_parts.js';
import { spec as sleep } from './sleep.js';
import { spec as split } from './split.js';
import { spec as switchProcessor } from './switch.js';
import { spec as syncResponse } from './sync_response.js';
import { spec as tryProcessor } from './try.js';
import { spec as tryCatch } from './try_catch.js';
import { spec as unarchive } from './unarchive.js';
import { spec as whileProcessor } from './while.js';
import { spec as workflow } from './workflow.js';
import { spec as xml } from './xml.js';

// biome-ignore lint/suspicious/noExplicitAny: specs of differing config types share one list
export const processors: ComponentSpec<any, any>[] = [
  noop,
  sleep,
  split,
  compress,
  decompress,
  boundsCheck,
  cacheProcessor,
  cached,
  dedupe,
  rateLimitProcessor,
  mapping,
  mutation,
  bloblang,
  branch,
  switchProcessor,
  syncResponse,
  catchProcessor,
  tryProcessor,
  forEach,
  whileProcessor,
  log,
  groupByValue,
  jsonSchema,
  archive,
  unarchive,
  selectParts,
  insertPart,
  processorsProcessor,
  parallel,
  tryCatch,
  metric,
  benchmark,
  workflow,
  protobufProcessor,
  avro,
  msgpack,
  xml,
];
