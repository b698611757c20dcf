// The sql components, in one list the registry includes. Add one import and one entry per component.
import type { ComponentSpec } from '../../config/spec.js';
import { spec as sqlRawInput } from '../inputs/sql_raw.js';
import { spec as sqlSelectInput } from '../inputs/sql_select.js';
import { spec as sqlInsertOutput } from '../outputs/sql_insert.js';
import { spec as sqlRawOutput } from '../outputs/sql_raw.js';
import { spec as sqlInsertProcessor } from '../processors/sql_insert.js';
import { spec as sqlRawProcessor } from '../processors/sql_raw.js';
import { spec as sqlSelectProcessor } from '../processors/sql_select.js';

// biome-ignore lint/suspicious/noExplicitAny: specs of differing config types share one list
export const sqlSpecs: ComponentSpec<any, any>[] = [
  sqlInsertOutput,
  sqlSelectInput,
  sqlRawInput,
  sqlRawProcessor,
  sqlRawOutput,
  sqlInsertProcessor,
  sqlSelectProcessor,
];
