// `multilevel` cache: several cache resources as levels, read through and written through.
import type { Logger } from 'pino';
import { defineRootComponent, field } from '../../config/spec.js';
import type { Cache } from '../../engine/component.js';
import type { Resources } from '../../engine/context.js';
import { errorMessage } from '../../engine/errors.js';
import { refuseProblems } from '../fields/config_problems.js';

/**
 * Levels are resolved by name at each use (like every resource user), so a level defined later
 * in the config or replaced at run time is found.
 */
export class MultilevelCache implements Cache {
  constructor(
    private readonly resources: Resources,
    private readonly levels: readonly string[],
    private readonly logger: Logger,
  ) {}

  /** The first level that has the key answers; the levels above it are then filled in. */
  async get(key: string): Promise<Uint8Array | undefined> {
    for (let i = 0; i < this.levels.length; i++) {
      const found = await this.level(i, (cache) => cache.get(key));
      if (found !== undefined) {
        await this.fillAbove(i, key, found);
        return found;
      }
    }
    return undefined;
  }

  /** Writes every level, top first; the first failure stops and fails the write. */
  async set(key: string, value: Uint8Array, ttlMs?: number): Promise<void> {
    for (let i = 0; i < this.levels.length; i++) await this.level(i, (cache) => cache.set(key, value, ttlMs));
  }

  /**
   * Refuses a key any upper level holds, then adds to the bottom level (whose own add decides
   * for the shared store) and, when that succeeded, to the levels above it, bottom up.
   */
  async add(key: string, value: Uint8Array, ttlMs?: number): Promise<boolean> {
    const bottom = this.levels.length - 1;
    for (let i = 0; i < bottom; i++) {
      if ((await this.level(i, (cache) => cache.get(key))) !== undefined) return false;
    }
    for (let i = bottom; i >= 0; i--) {
      if (!(await this.level(i, (cache) => cache.add(key, value, ttlMs)))) return false;
    }
    return true;
  }

  async delete(key: string): Promise<void> {
    for (let i = 0; i < this.levels.length; i++) await this.level(i, (cache) => cache.delete(key));
  }

  async close(): Promise<void> {}

  private level<T>(i: number, fn: (cache: Cache) => Promise<T>): Promise<T> {
    const name = this.levels[i]!;
    return this.resources.useCache(name, fn).catch((err) => {
      throw new Error(`cache '${name}': ${errorMessage(err)}`);
    });
  }

  /** Copies a value found at level i into the levels above it; failures are only logged. */
  private async fillAbove(i: number, key: string, value: Uint8Array): Promise<void> {
    for (let j = 0; j < i; j++) {
      try {
        await this.level(j, (cache) => cache.set(key, value));
      } catch (err) {
        this.logger.error(`unable to passively set key '${key}' for ${errorMessage(err)}`);
      }
    }
  }
}

const tooFewLevels = (levels: readonly string[]): string[] =>
  levels.length < 2 ? [`expected at least two cache levels, found ${levels.length}`] : [];

export const spec = defineRootComponent({
  name: 'multilevel',
  kind: 'cache',
  status: 'stable',
  summary: 'Combines several caches as levels, reading through and writing through them.',
  description: `The config is the list of cache resource names, the fastest level first (at least two).

- get: asks each level in turn; the first that has the key answers, and the value is copied into the levels above it.
- set and delete: apply to every level in turn; a level that fails fails the operation.
- add: fails when any level but the last already has the key; otherwise adds to the last level, then to each level above it.

Useful to cut traffic to a remote cache by putting a local one in front of it.`,
  root: field.array(field.string('', 'The cache resources to use as levels, the first one checked first.')),
  examples: [
    {
      title: 'Hot and cold cache',
      config: `input:
  generate:
    count: 1
    mapping: 'root = {"key": "foo"}'
pipeline:
  processors:
    - branch:
        processors:
          - cache:
              resource: leveled
              operator: get
              key: '\${! json("key") }'
          - catch:
              - mapping: 'root = {"err": error()}'
        result_map: 'root.result = this'
output:
  stdout: {}
cache_resources:
  - label: leveled
    multilevel: [ hot, cold ]
  - label: hot
    memory:
      default_ttl: 60s
  - label: cold
    lru:
      cap: 100000
`,
    },
  ],
  lint: tooFewLevels,
  build: (config, ctx): Cache => {
    refuseProblems(tooFewLevels(config));
    return new MultilevelCache(ctx.resources, config, ctx.logger);
  },
});
