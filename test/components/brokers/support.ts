// Fault-injecting members and helpers for the broker tests: outputs that record, fail or never
// acknowledge; a source whose acks are counted per message; streams built from YAML.
import { pino } from 'pino';
import { registry as builtins } from '../../../src/components/registry.js';
import { schemaProvider } from '../../../src/config/schema.js';
import { toStreamConfig } from '../../../src/config/service_config.js';
import { type ComponentSpec, field } from '../../../src/config/spec.js';
import { buildLineIndex, parseYaml, yamlToValue } from '../../../src/config/yaml_document.js';
import type { ConnectionStatus, Input, Output, Transaction } from '../../../src/engine/component.js';
import { Registry } from '../../../src/engine/registry.js';
import { Stream } from '../../../src/engine/stream.js';
import { type Batch, Message } from '../../../src/message/message.js';
import { createTestEnv, type TestEnvOptions } from '../../helpers/context.js';

export type MemberMode = 'ok' | 'error' | 'hang';

/** A member output whose behaviour a test switches at will. */
export class MemberOutput implements Output {
  readonly received: string[] = [];
  attempts = 0;
  closed = false;
  constructor(
    readonly name: string,
    public mode: MemberMode = 'ok',
    private readonly errorText = 'this is a test',
  ) {}

  async write(batch: Batch): Promise<void> {
    this.attempts++;
    if (this.mode === 'hang') return new Promise<void>(() => undefined);
    if (this.mode === 'error') throw new Error(this.errorText);
    for (const m of batch) this.received.push(m.text());
  }

  statuses(): ConnectionStatus[] {
    return [{ label: this.name, path: `output.${this.name}`, connected: true }];
  }

  async close(): Promise<void> {
    this.closed = true;
  }
}

/** Ack outcomes per payload: a message must end with exactly one entry. */
export class AckLedger {
  readonly outcomes = new Map<string, (string | null)[]>();
  record(payload: string, err: Error | null): void {
    const list = this.outcomes.get(payload) ?? [];
    list.push(err ? err.message : null);
    this.outcomes.set(payload, list);
  }
  txn(payload: string): Transaction {
    return { batch: [new Message(payload)], ack: async (err) => this.record(payload, err) };
  }
}

/** An input that hands out the given transactions, then ends. */
export class ListInput implements Input {
  private next = 0;
  closed = false;
  constructor(private readonly txns: Transaction[]) {}
  async read(): Promise<Transaction | null> {
    if (this.closed) return null;
    return this.txns[this.next++] ?? null;
  }
  statuses(): ConnectionStatus[] {
    return [];
  }
  async close(): Promise<void> {
    this.closed = true;
  }
}

/** Builds a stream (input, pipeline, output) from YAML with the given registry. */
export async function streamFromYaml(yaml: string, options: TestEnvOptions & { registry?: Registry } = {}) {
  const test = createTestEnv(options);
  const parsed = parseYaml(yaml);
  const config = toStreamConfig(yamlToValue(parsed), {
    provider: schemaProvider(test.env.registry),
    lines: buildLineIndex(parsed),
  });
  const buffer = config.buffer.type === 'none' ? null : config.buffer;
  const stream = await Stream.build(
    { input: config.input, buffer, pipeline: config.pipeline, output: config.output },
    test.builder,
    pino({ level: 'silent' }),
    test.abort,
  );
  return { stream, ...test };
}

/**
 * A registry with `test_member` (an output looked up by `name` in `members`) and `test_source`
 * (an input of `count` messages `<prefix>0..`, acks recorded in `ledger`), plus every built-in.
 */
export function testRegistry(members: Map<string, Output>, ledger: AckLedger): Registry {
  const member: ComponentSpec<{ name: string }> = {
    name: 'test_member',
    kind: 'output',
    status: 'stable',
    summary: 'test double',
    fields: [field.string('name', '')],
    build: ({ name }) => {
      const found = members.get(name);
      if (!found) throw new Error(`no test member ${name}`);
      return found;
    },
  };
  const source: ComponentSpec<{ count: number; prefix: string }> = {
    name: 'test_source',
    kind: 'input',
    status: 'stable',
    summary: 'test double',
    fields: [field.int('count', '', { default: 10 }), field.string('prefix', '', { default: 'p' })],
    build: ({ count, prefix }) =>
      new ListInput(Array.from({ length: count }, (_, i) => ledger.txn(`${prefix}${i}`))),
  };
  return new Registry([...builtins.list(), member as ComponentSpec, source as ComponentSpec]);
}
