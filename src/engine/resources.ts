// Named shared components (caches, rate limits, processors, inputs, outputs). Users resolve a
// name at each use, so replacing a resource takes effect for every stream without a restart.
import type { Batch } from '../message/message.js';
import type {
  Cache,
  ConnectionStatus,
  Input,
  Output,
  Processor,
  RateLimit,
  Transaction,
} from './component.js';
import type { Resources } from './context.js';
import type { ExhaustedListener } from './exhaustion.js';
import { writeGroupTo } from './group_write.js';

export type ResourceKind = 'cache' | 'rate_limit' | 'processor' | 'input' | 'output';

export const RESOURCE_KINDS: readonly ResourceKind[] = [
  'cache',
  'input',
  'output',
  'processor',
  'rate_limit',
];

type Closable = { close(): Promise<void> };

interface Entry {
  component: Closable;
  /** The config as written, for API reads. */
  raw: unknown;
  inUse: number;
  idle: Array<() => void>;
}

export class ResourceManager implements Resources {
  private readonly entries = new Map<ResourceKind, Map<string, Entry>>();
  private readonly changeWaiters = new Map<string, Array<() => void>>();

  has(kind: ResourceKind, name: string): boolean {
    return this.entries.get(kind)?.has(name) ?? false;
  }

  names(kind: ResourceKind): string[] {
    return [...(this.entries.get(kind)?.keys() ?? [])].sort();
  }

  rawConfig(kind: ResourceKind, name: string): unknown {
    return this.entries.get(kind)?.get(name)?.raw;
  }

  /** Installs or replaces a resource; the old one is closed once its in-flight users finish. */
  async set(kind: ResourceKind, name: string, component: Closable, raw: unknown): Promise<void> {
    let named = this.entries.get(kind);
    if (!named) {
      named = new Map();
      this.entries.set(kind, named);
    }
    const old = named.get(name);
    named.set(name, { component, raw, inUse: 0, idle: [] });
    for (const wake of this.changeWaiters.get(`${kind}/${name}`)?.splice(0) ?? []) wake();
    if (old) await this.retire(old);
  }

  /** Removes and closes a resource; false when there was none. */
  async remove(kind: ResourceKind, name: string): Promise<boolean> {
    const old = this.entries.get(kind)?.get(name);
    if (!old) return false;
    this.entries.get(kind)?.delete(name);
    await this.retire(old);
    return true;
  }

  async closeAll(): Promise<void> {
    const all = [...this.entries.values()].flatMap((m) => [...m.values()]);
    this.entries.clear();
    await Promise.allSettled(all.map((e) => this.retire(e)));
  }

  useCache<T>(name: string, fn: (cache: Cache) => Promise<T>): Promise<T> {
    return this.use('cache', name, fn as (c: Closable) => Promise<T>);
  }

  useRateLimit<T>(name: string, fn: (limit: RateLimit) => Promise<T>): Promise<T> {
    return this.use('rate_limit', name, fn as (c: Closable) => Promise<T>);
  }

  useProcessor<T>(name: string, fn: (processor: Processor) => Promise<T>): Promise<T> {
    return this.use('processor', name, fn as (c: Closable) => Promise<T>);
  }

  input(name: string): Input {
    return new ResourceInput(this, name);
  }

  output(name: string): Output {
    return new ResourceOutput(this, name);
  }

  /** The current component of that name, or undefined. */
  current<T>(kind: ResourceKind, name: string): T | undefined {
    return this.entries.get(kind)?.get(name)?.component as T | undefined;
  }

  /** Resolves when a resource of that name is (re)installed. */
  changed(kind: ResourceKind, name: string): Promise<void> {
    const key = `${kind}/${name}`;
    return new Promise((resolve) => {
      const list = this.changeWaiters.get(key) ?? [];
      list.push(resolve);
      this.changeWaiters.set(key, list);
    });
  }

  async use<T>(kind: ResourceKind, name: string, fn: (component: Closable) => Promise<T>): Promise<T> {
    const entry = this.entries.get(kind)?.get(name);
    if (!entry) throw new Error(`${kind} resource '${name}' was not found`);
    entry.inUse++;
    try {
      return await fn(entry.component);
    } finally {
      if (--entry.inUse === 0) for (const wake of entry.idle.splice(0)) wake();
    }
  }

  private async retire(entry: Entry): Promise<void> {
    if (entry.inUse > 0) await new Promise<void>((resolve) => entry.idle.push(resolve));
    await entry.component.close();
  }
}

/** Reads from whichever input currently holds the resource name. */
class ResourceInput implements Input {
  private closed = false;

  constructor(
    private readonly resources: ResourceManager,
    private readonly name: string,
  ) {}

  async read(): Promise<Transaction | null> {
    while (!this.closed) {
      const input = this.resources.current<Input>('input', this.name);
      if (!input) throw new Error(`input resource '${this.name}' was not found`);
      const txn = await input.read();
      if (txn || this.closed) return txn;
      // The resource ended: if it is being replaced, keep reading from the new one.
      if (this.resources.current<Input>('input', this.name) === input) return null;
    }
    return null;
  }

  /** Hears the resource present now (a stream subscribes as it starts). */
  onExhausted(listener: ExhaustedListener): void {
    this.resources.current<Input>('input', this.name)?.onExhausted?.(listener);
  }

  statuses(): ConnectionStatus[] {
    return this.resources.current<Input>('input', this.name)?.statuses() ?? [];
  }

  async close(): Promise<void> {
    this.closed = true;
  }
}

/** Writes to whichever output currently holds the resource name. */
class ResourceOutput implements Output {
  constructor(
    private readonly resources: ResourceManager,
    private readonly name: string,
  ) {}

  write(batch: Batch): Promise<void> {
    return this.resources.use('output', this.name, (o) => (o as Output).write(batch));
  }

  /** A group in one call to the resource: its own group write, or batch by batch. */
  writeGroup(batches: readonly Batch[]): Promise<void> {
    return this.resources.use('output', this.name, (o) => writeGroupTo(o as Output, batches));
  }

  statuses(): ConnectionStatus[] {
    return this.resources.current<Output>('output', this.name)?.statuses() ?? [];
  }

  async close(): Promise<void> {}
}
