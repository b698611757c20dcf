// Packages that only some streams use, required on first use instead of at start: they stay
// outside the bundle (and its code cache), and the component registry loads every component's
// module, so each was compiled on every start: protobufjs, long and avsc ~20 ms, @msgpack/msgpack
// ~19 ms, fast-xml-parser ~15 ms, @jmespath-community/jmespath ~10 ms (CLI start-up profiles).
import { createRequire } from 'node:module';
import type avsc from 'avsc';
import type Long from 'long';
import type protobuf from 'protobufjs';

type Msgpack = typeof import('@msgpack/msgpack');
type FastXmlParser = typeof import('fast-xml-parser');
type Jmespath = typeof import('@jmespath-community/jmespath');

const load = createRequire(import.meta.url);
let protobufModule: typeof protobuf | undefined;
let longModule: typeof Long | undefined;
let avscModule: typeof avsc | undefined;
let msgpack: Msgpack | undefined;
let fastXmlParser: FastXmlParser | undefined;
let jmespath: Jmespath | undefined;

export const protobufNow = (): typeof protobuf => (protobufModule ??= load('protobufjs') as typeof protobuf);
export const longNow = (): typeof Long => (longModule ??= load('long') as typeof Long);
export const avscNow = (): typeof avsc => (avscModule ??= load('avsc') as typeof avsc);
export const msgpackNow = (): Msgpack => (msgpack ??= load('@msgpack/msgpack') as Msgpack);
export const fastXmlParserNow = (): FastXmlParser =>
  (fastXmlParser ??= load('fast-xml-parser') as FastXmlParser);
export const jmespathNow = (): Jmespath => (jmespath ??= load('@jmespath-community/jmespath') as Jmespath);
