// Pure-JS packages that only some streams use, required on first use instead of at start: they
// stay outside the bundle (and its code cache), so each was compiled from source on every start:
// @msgpack/msgpack ~19 ms, fast-xml-parser ~15 ms, @jmespath-community/jmespath ~10 ms of a
// ~310 ms start (CLI start-up profile), since the component registry loads every module.
import { createRequire } from 'node:module';

type Msgpack = typeof import('@msgpack/msgpack');
type FastXmlParser = typeof import('fast-xml-parser');
type Jmespath = typeof import('@jmespath-community/jmespath');

const load = createRequire(import.meta.url);
let msgpack: Msgpack | undefined;
let fastXmlParser: FastXmlParser | undefined;
let jmespath: Jmespath | undefined;

export const msgpackNow = (): Msgpack => (msgpack ??= load('@msgpack/msgpack') as Msgpack);
export const fastXmlParserNow = (): FastXmlParser =>
  (fastXmlParser ??= load('fast-xml-parser') as FastXmlParser);
export const jmespathNow = (): Jmespath => (jmespath ??= load('@jmespath-community/jmespath') as Jmespath);
