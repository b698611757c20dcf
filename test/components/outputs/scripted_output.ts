// An Output for composite-output tests: fails the writes it is told to, records the rest.
import type { ConnectionStatus, Output } from '../../../src/engine/component.js';
import type { BuildContext, ComponentConfig } from '../../../src/engine/context.js';
import type { Batch } from '../../../src/message/message.js';
import { createTestContext } from '../../helpers/context.js';

export class ScriptedOutput implements Output {
  attempts = 0;
  readonly delivered: Batch[] = [];
  closed = false;

  /** failWrite(attempt) decides per 1-based attempt whether it throws. */
  constructor(
    readonly name: string,
    private readonly failWrite: (attempt: number) => boolean = () => false,
  ) {}

  async write(batch: Batch): Promise<void> {
    this.attempts++;
    if (this.failWrite(this.attempts)) throw new Error(`${this.name} failed attempt ${this.attempts}`);
    this.delivered.push(batch);
  }

  statuses(): ConnectionStatus[] {
    return [{ label: this.name, path: `output.${this.name}`, connected: true }];
  }

  async close(): Promise<void> {
    this.closed = true;
  }
}

/** A child output's config as the engine would hand it over. */
export function childConfig(name: string): ComponentConfig {
  return { type: name, label: '', config: {}, processors: [], path: `root.output.${name}`, raw: {} };
}

/** A BuildContext whose buildOutput returns the scripted output named by the config's type. */
export function contextWith(outputs: ScriptedOutput[]): BuildContext {
  const ctx = createTestContext({ type: 'composite', path: 'root.output' });
  return {
    ...ctx,
    buildOutput: async (cc: ComponentConfig) => {
      const found = outputs.find((o) => o.name === cc.type);
      if (!found) throw new Error(`no scripted output ${cc.type}`);
      return found;
    },
  };
}
