// `dynamic` input: merges inputs that are added, replaced and removed over HTTP while the stream
// runs (spec §6.2–§6.5, §6.7).
import { defineComponent, field } from '../../config/spec.js';
import type { ConnectionStatus, Input, Transaction } from '../../engine/component.js';
import type { BuildContext, ComponentConfig } from '../../engine/context.js';
import { errorMessage } from '../../engine/errors.js';
import type { ExhaustedListener } from '../../engine/exhaustion.js';
import { DynamicCrud } from '../brokers/dynamic_crud.js';
import { readMemberBody } from '../brokers/dynamic_member.js';
import { startDynamic } from '../brokers/dynamic_start.js';
import { MergedInput } from '../brokers/merged_input.js';

export class DynamicInput implements Input {
  private readonly merged: MergedInput;
  readonly crud: DynamicCrud;

  constructor(private readonly ctx: BuildContext) {
    this.crud = new DynamicCrud('inputs', {
      update: (id, body) => this.setFromBody(id, body),
      remove: (id) => this.remove(id),
    });
    this.merged = new MergedInput({
      endWhenEmpty: false,
      onMemberEnded: (id, err) => {
        if (err !== undefined) ctx.logger.error(`dynamic input '${id}' failed: ${errorMessage(err)}`);
        this.crud.stopped(id);
      },
    });
  }

  /** Builds the new input first: a config that does not build leaves the old one running. */
  async setFromBody(id: string, body: Buffer | string): Promise<void> {
    const member = readMemberBody('input', body, `${this.ctx.path}.dynamic.inputs.${id}`, this.ctx.schemas);
    await this.set(id, member.config, member.stored);
  }

  async set(id: string, config: ComponentConfig, stored: string): Promise<void> {
    const input = await this.ctx.buildInput(config);
    // The old input stops (and settles what it handed out) before the new one starts reading.
    const old = this.merged.remove(id);
    if (old) {
      this.crud.stopped(id);
      try {
        await old.close();
      } catch (err) {
        await input.close().catch(() => undefined);
        throw err;
      }
    }
    try {
      this.merged.add(id, input);
    } catch (err) {
      await input.close().catch(() => undefined);
      throw err;
    }
    this.crud.started(id, stored);
  }

  async remove(id: string): Promise<void> {
    const old = this.merged.remove(id);
    this.crud.stopped(id);
    if (old) await old.close();
  }

  read(): Promise<Transaction | null> {
    return this.merged.read();
  }

  onExhausted(listener: ExhaustedListener): void {
    this.merged.onExhausted(listener);
  }

  /** None, as the reference: a dynamic input never makes its stream "not ready" (spec §6.7). */
  statuses(): ConnectionStatus[] {
    return [];
  }

  close(): Promise<void> {
    return this.merged.close();
  }
}

export const spec = defineComponent({
  name: 'dynamic',
  kind: 'input',
  status: 'stable',
  categories: ['Utility'],
  summary: 'Merges inputs that can be added, replaced and removed over HTTP while the stream runs.',
  description: `Messages of all inputs are merged into one stream, each acknowledged to the input it came from. An input's own \`processors\` run before the stream's pipeline. An input that ends by itself is listed as \`stopped\` until it is deleted; posting the same body again does not restart it (delete it first, or change the body).

Endpoints (under \`/<stream id>\` in streams mode): \`GET {prefix}/inputs\`, \`GET|POST|DELETE {prefix}/inputs/{id}\` and \`GET {prefix}/inputs/{id}/uptime\`, as for the \`dynamic\` output. Every failure is answered 502.`,
  fields: [
    field.map(field.component('input', 'inputs', 'Inputs to start with, by id.', { default: {} })),
    field.string('prefix', 'A path prefix for the HTTP endpoints of this input.', { default: '' }),
  ],
  examples: [
    {
      title: 'Inputs managed over HTTP',
      config: `input:
  dynamic:
    prefix: /sources
    inputs:
      ticker:
        generate:
          interval: 1s
          mapping: 'root = {"tick": counter()}'
output:
  stdout: {}
`,
    },
  ],
  build: (config, ctx): Promise<Input> =>
    startDynamic(new DynamicInput(ctx), 'input', config.inputs, config.prefix, ctx),
});
