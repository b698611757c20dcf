// `dynamic` output: a fan-out whose members are added, replaced and removed over HTTP while the
// stream runs (spec §6.1, §6.3–§6.6).
import { defineComponent, field } from '../../config/spec.js';
import type { BackoffConfig } from '../../engine/backoff.js';
import type { ConnectionStatus, Output } from '../../engine/component.js';
import type { BuildContext, ComponentConfig } from '../../engine/context.js';
import { errorMessage } from '../../engine/errors.js';
import type { Batch } from '../../message/message.js';
import { DynamicCrud } from '../brokers/dynamic_crud.js';
import { readMemberBody } from '../brokers/dynamic_member.js';
import { startDynamic } from '../brokers/dynamic_start.js';
import { FanOutOutput } from '../brokers/fan_out.js';
import { RetryOutput } from './retry.js';

/** Every member retries its failed writes on its own, without limit (spec §6.6). */
const MEMBER_RETRY: BackoffConfig = { initialMs: 500, maxMs: 3_000, maxElapsedMs: 0, multiplier: 2 };

/** How long a POST or DELETE waits for a replaced member to close before answering anyway. */
const CLOSE_WAIT_MS = 5_000;

/** Options for tests: how long a replaced member may take to close. */
export interface DynamicOutputOptions {
  closeWaitMs?: number;
}

export class DynamicOutput implements Output {
  /** Members copy each batch in their retry wrapper, so the fan-out need not copy it again. */
  private readonly fanOut = new FanOutOutput({ copyPerMember: false });
  readonly crud: DynamicCrud;

  constructor(
    private readonly ctx: BuildContext,
    private readonly options: DynamicOutputOptions = {},
  ) {
    this.crud = new DynamicCrud('outputs', {
      update: (id, body) => this.setFromBody(id, body),
      remove: (id) => this.remove(id),
    });
  }

  /** Builds the new member first: a config that does not build leaves the old one running. */
  async setFromBody(id: string, body: Buffer | string, options: { keep?: boolean } = {}): Promise<void> {
    const member = readMemberBody('output', body, `${this.ctx.path}.dynamic.outputs.${id}`, this.ctx.schemas);
    const { members } = this.ctx;
    // A member kept in the stream store is written there before it is installed (not when restored).
    const keep =
      options.keep !== false && members ? () => members.put(this.ctx.path, id, String(body)) : undefined;
    await this.set(id, member.config, member.stored, keep);
  }

  async set(id: string, config: ComponentConfig, stored: string, keep?: () => Promise<void>): Promise<void> {
    const built = await this.ctx.buildOutput(config);
    const member = new RetryOutput(built, MEMBER_RETRY, 0, this.ctx.logger, this.ctx.signal);
    let old: Output | undefined;
    try {
      await keep?.();
      old = this.fanOut.set(id, member);
    } catch (err) {
      await member.close().catch(() => undefined);
      throw err;
    }
    this.crud.started(id, stored);
    if (old) await this.retire(id, old);
  }

  async remove(id: string): Promise<void> {
    await this.ctx.members?.remove(this.ctx.path, id);
    const old = this.fanOut.remove(id);
    this.crud.stopped(id);
    if (old) await this.retire(id, old);
  }

  ids(): string[] {
    return this.fanOut.ids();
  }

  write(batch: Batch): Promise<void> {
    return this.fanOut.write(batch);
  }

  /** A group goes to each member in one call, as in the `broker` fan-out. */
  writeGroup(batches: readonly Batch[]): Promise<void> {
    return this.fanOut.writeGroup(batches);
  }

  statuses(): ConnectionStatus[] {
    return this.fanOut.statuses();
  }

  async flush(): Promise<void> {
    await this.fanOut.flush();
  }

  async close(): Promise<void> {
    const ids = this.fanOut.ids();
    await this.fanOut.close();
    for (const id of ids) this.crud.stopped(id);
  }

  /** Closes a member taken out of the set; a slow close is logged, not waited for (spec §6.4). */
  private async retire(id: string, old: Output): Promise<void> {
    const closed = old.close().then(
      () => true,
      (err: unknown) => {
        this.ctx.logger.warn(`failed to close dynamic output '${id}': ${errorMessage(err)}`);
        return true;
      },
    );
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), this.options.closeWaitMs ?? CLOSE_WAIT_MS);
    });
    const inTime = await Promise.race([closed, late]);
    clearTimeout(timer);
    if (!inTime) this.ctx.logger.warn(`dynamic output '${id}' did not close in time`);
    // Writes it still holds would block their upstream acks forever: fail them, so the source
    // redelivers to the outputs present now.
    this.fanOut.failPendingWrites(old, new Error(`dynamic output '${id}' was removed`));
  }
}

export const spec = defineComponent({
  name: 'dynamic',
  kind: 'output',
  status: 'stable',
  categories: ['Utility'],
  summary: 'A fan-out whose outputs can be added, replaced and removed over HTTP while the stream runs.',
  description: `Every message goes to every output present when it is dispatched; an output added later sees only later messages. A message is acknowledged once every output has written it. Each output retries its own failed writes with backoff (500ms up to 3s, without limit), so the others never get duplicates. With no outputs at all, messages wait until one is added: nothing is dropped.

Endpoints (under \`/<stream id>\` in streams mode):

- \`GET {prefix}/outputs\`: every output as \`{"<id>": {"uptime": "1m2s", "config": {...}, "config_raw": "..."}}\`.
- \`GET {prefix}/outputs/{id}\`: the output's config as YAML; 404 when there is none.
- \`POST {prefix}/outputs/{id}\`: sets or replaces the output from a YAML or JSON body. Posting the same bytes again changes nothing. A body that does not parse or build is answered 502 with the error, and the previous output keeps running.
- \`DELETE {prefix}/outputs/{id}\`: removes the output.
- \`GET {prefix}/outputs/{id}/uptime\`: how long it has been running, e.g. \`1h2m3.5s\`.

Every failure of these endpoints is answered 502, as the reference does.`,
  fields: [
    field.map(field.component('output', 'outputs', 'Outputs to start with, by id.', { default: {} })),
    field.string('prefix', 'A path prefix for the HTTP endpoints of this output.', { default: '' }),
  ],
  examples: [
    {
      title: 'Outputs managed over HTTP',
      config: `input:
  generate:
    count: 10
    interval: 1s
    mapping: 'root = {"id": counter()}'
output:
  dynamic:
    prefix: /fanout
    outputs:
      local:
        file:
          path: /tmp/nekton-dynamic-example.jsonl
          codec: lines
`,
    },
  ],
  build: (config, ctx): Promise<Output> =>
    startDynamic(new DynamicOutput(ctx), 'output', config.outputs, config.prefix, ctx, async (output) => {
      // Members posted before a restart (streams mode with a store) replace static ones of the same id.
      for (const [id, body] of ctx.members?.stored(ctx.path) ?? []) {
        await output.setFromBody(id, body, { keep: false }).catch((err: unknown) => {
          ctx.logger.error(`kept dynamic output '${id}' was not restored: ${errorMessage(err)}`);
        });
      }
    }),
});
