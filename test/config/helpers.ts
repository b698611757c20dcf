// Shared setup for config tests: the fixture registry and a Bloblang checker that accepts all.
import type { BloblangChecker } from '../../src/config/bloblang_check.js';
import { schemaProvider } from '../../src/config/schema.js';
import { testRegistry } from '../fixtures/config/specs.js';

export const provider = schemaProvider(testRegistry);

/** Bloblang syntax is another module's job; these tests only need "parses". */
export const acceptAllBloblang: BloblangChecker = {
  checkMapping: () => undefined,
  checkInterpolation: () => undefined,
};

export const lintOptions = { provider, bloblang: acceptAllBloblang };
