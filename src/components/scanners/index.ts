// Every scanner (codec) component, in one list the registry is built from.
import type { ComponentSpec } from '../../config/spec.js';
import { spec as avro } from './avro.js';
import { spec as chunker } from './chunker.js';
import { spec as csv } from './csv.js';
import { spec as decompress } from './decompress.js';
import { spec as json_array } from './json_array.js';
import { spec as json_documents } from './json_documents.js';
import { spec as lines } from './lines.js';
import { spec as re_match } from './re_match.js';
import { spec as skip_bom } from './skip_bom.js';
import { spec as scannerSwitch } from './switch.js';
import { spec as tar } from './tar.js';
import { spec as to_the_end } from './to_the_end.js';

// biome-ignore lint/suspicious/noExplicitAny: specs of differing config types share one list
export const scanners: ComponentSpec<any, any>[] = [
  avro,
  chunker,
  csv,
  decompress,
  json_array,
  json_documents,
  lines,
  re_match,
  skip_bom,
  scannerSwitch,
  tar,
  to_the_end,
];
