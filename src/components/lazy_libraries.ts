// Format libraries loaded by the first component that uses them, not at every start of nekton
// (protobufjs, long and avsc cost ~20 ms of a ~180 ms start, for configs that never use them).
import { createRequire } from 'node:module';
import type avsc from 'avsc';
import type Long from 'long';
import type protobuf from 'protobufjs';

const load = createRequire(import.meta.url);
let protobufModule: typeof protobuf | undefined;
let longModule: typeof Long | undefined;
let avscModule: typeof avsc | undefined;

export const protobufNow = (): typeof protobuf => (protobufModule ??= load('protobufjs') as typeof protobuf);
export const longNow = (): typeof Long => (longModule ??= load('long') as typeof Long);
export const avscNow = (): typeof avsc => (avscModule ??= load('avsc') as typeof avsc);
