// The processors a pipeline thread can run (engine/threads/pool.ts lists the same names: a pipeline
// with anything else stays on the main thread), one line each as in all.ts. A thread loads only
// these, not every component: ~30 ms less of a thread's start, on a core the stream already uses.
// test/engine/thread_components.test.ts fails when this list and pool.ts's disagree.
export { spec as processor_archive } from './processors/archive.js';
export { spec as processor_avro } from './processors/avro.js';
export { spec as processor_bloblang } from './processors/bloblang.js';
export { spec as processor_bounds_check } from './processors/bounds_check.js';
export { spec as processor_branch } from './processors/branch.js';
export { spec as processor_catch } from './processors/catch.js';
export { spec as processor_compress } from './processors/compress.js';
export { spec as processor_decompress } from './processors/decompress.js';
export { spec as processor_for_each } from './processors/for_each.js';
export { spec as processor_group_by_value } from './processors/group_by_value.js';
export { spec as processor_insert_part } from './processors/insert_part.js';
export { spec as processor_log } from './processors/log.js';
export { spec as processor_mapping } from './processors/mapping.js';
export { spec as processor_msgpack } from './processors/msgpack.js';
export { spec as processor_mutation } from './processors/mutation.js';
export { spec as processor_noop } from './processors/noop.js';
export { spec as processor_parallel } from './processors/parallel.js';
export { spec as processor_protobuf } from './processors/protobuf.js';
export { spec as processor_select_parts } from './processors/select_parts.js';
export { spec as processor_sleep } from './processors/sleep.js';
export { spec as processor_split } from './processors/split.js';
export { spec as processor_switch } from './processors/switch.js';
export { spec as processor_try } from './processors/try.js';
export { spec as processor_unarchive } from './processors/unarchive.js';
export { spec as processor_while } from './processors/while.js';
export { spec as processor_xml } from './processors/xml.js';
