// `noop` cache: stores nothing; every get misses and every write "succeeds".
import { defineComponent } from '../../config/spec.js';
import type { Cache } from '../../engine/component.js';

export class NoopCache implements Cache {
  async get(): Promise<Uint8Array | undefined> {
    return undefined;
  }

  async set(): Promise<void> {}

  /** Always reports the key as newly added, since nothing is ever found. */
  async add(): Promise<boolean> {
    return true;
  }

  async delete(): Promise<void> {}

  async close(): Promise<void> {}
}

export const spec = defineComponent({
  name: 'noop',
  kind: 'cache',
  status: 'stable',
  summary: 'Stores nothing: every get finds nothing, and set, add and delete succeed without effect.',
  description:
    'Useful to switch caching off without changing the processors that use a cache, e.g. a `cached` processor then runs its processors for every message. `add` always succeeds, so it never flags a message as a duplicate.',
  fields: [] as const,
  examples: [
    {
      title: 'Switch caching off',
      config: `input:
  generate:
    count: 1
    mapping: 'root = "hello"'
pipeline:
  processors:
    - cached:
        cache: nothing
        key: static
        processors:
          - mapping: 'root = content().uppercase()'
output:
  stdout: {}
cache_resources:
  - label: nothing
    noop: {}
`,
    },
  ],
  build: (): Cache => new NoopCache(),
});
