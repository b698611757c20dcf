// `switch` output: routes each message to the output of the first case whose check passes (or of
// every passing case with `continue`), and settles the batch only once every routed write has.
import type { Logger } from 'pino';
import type { Mapping } from '../../bloblang/index.js';
import { defineComponent, field } from '../../config/spec.js';
import type { BackoffConfig } from '../../engine/backoff.js';
import {
  failedBatches,
  failedMessages,
  partialError,
  partialGroupError,
  wholeFailure,
} from '../../engine/batch_error.js';
import type { ConnectionStatus, Output } from '../../engine/component.js';
import { errorMessage } from '../../engine/errors.js';
import type { Batch, Message } from '../../message/message.js';
import { flushMembers } from '../brokers/flush_members.js';
import { refuseProblems } from '../fields/config_problems.js';
import { checkPasses } from '../processors/check.js';
import { RetryOutput } from './retry.js';

export interface SwitchOutputCase {
  /** null: the case always passes. */
  check: Mapping | null;
  output: Output;
  continue: boolean;
}

/** The reference's indefinite retry of a case output under `retry_until_success`. */
const RETRY_FOREVER: BackoffConfig = { initialMs: 100, maxMs: 1000, maxElapsedMs: 0 };

export class SwitchOutput implements Output {
  writeGroup?: (batches: readonly Batch[]) => Promise<void>;

  constructor(
    private readonly cases: SwitchOutputCase[],
    private readonly strictMode: boolean,
    private readonly logger: Logger,
  ) {
    // Without group writes underneath, a group would start one write per batch and case at once.
    if (cases.every((c) => c.output.writeGroup))
      this.writeGroup = (batches) => this.writeRoutedGroup(batches);
  }

  write(batch: Batch): Promise<void> {
    return this.sendRouted([batch], (output, routed) => output.write(routed[0]!));
  }

  private writeRoutedGroup(batches: readonly Batch[]): Promise<void> {
    return this.sendRouted(batches, (output, routed) => output.writeGroup!(routed));
  }

  /**
   * Routes every batch first (strict mode fails the whole call before any write), then hands each
   * case output its share, one batch per input batch that had messages for it. A failed case
   * fails only what was routed to it (what its output names, when it says): the messages other
   * cases wrote are not sent again.
   */
  private async sendRouted(
    batches: readonly Batch[],
    send: (output: Output, routed: Batch[]) => Promise<void>,
  ): Promise<void> {
    const perCase: Batch[][] = new Array(this.cases.length);
    /** For each case: per routed batch, the batch it came from and its messages' positions there. */
    const origins: Origin[][] = new Array(this.cases.length);
    for (let b = 0; b < batches.length; b++) {
      const targets = this.route(batches[b]!);
      for (let c = 0; c < targets.length; c++) {
        const target = targets[c];
        if (!target || target.messages.length === 0) continue;
        perCase[c] ??= [];
        perCase[c].push(target.messages);
        origins[c] ??= [];
        origins[c].push({ batch: b, positions: target.positions });
      }
    }
    const writes: Promise<void>[] = [];
    const shares: Origin[][] = [];
    const sent: Batch[][] = [];
    for (let c = 0; c < perCase.length; c++) {
      const share = perCase[c];
      if (!share) continue;
      writes.push(send(this.cases[c]!.output, share));
      shares.push(origins[c]!);
      sent.push(share);
    }
    if (writes.length === 0) return;
    if (writes.length === 1) {
      try {
        return await writes[0];
      } catch (err) {
        throw callFailure(batches, failedOrigins(err, sent[0]!, shares[0]!, batches.length === 1), err);
      }
    }
    const results = await Promise.allSettled(writes);
    let reason: Error | null = null;
    const failed = new Set<number>();
    for (let w = 0; w < results.length; w++) {
      const result = results[w]!;
      if (result.status === 'fulfilled') continue;
      reason ??= wholeFailure(result.reason);
      for (const at of failedOrigins(result.reason, sent[w]!, shares[w]!, batches.length === 1))
        failed.add(at);
    }
    if (!reason) return;
    throw callFailure(batches, [...failed], reason);
  }

  /** The messages each case receives (its own copies); throws in strict mode when one matches none. */
  private route(batch: Batch): (Routed | undefined)[] {
    const targets: (Routed | undefined)[] = new Array(this.cases.length);
    for (let i = 0; i < batch.length; i++) {
      let matched = false;
      for (let c = 0; c < this.cases.length; c++) {
        const switchCase = this.cases[c]!;
        if (!this.passes(switchCase, c, batch, i)) continue;
        matched = true;
        const routed = targets[c] ?? { messages: [], positions: [] };
        targets[c] = routed;
        routed.messages.push(batch[i]!.copy());
        routed.positions.push(i);
        if (!switchCase.continue) break;
      }
      if (!matched && this.strictMode) {
        this.logger.error(
          'message failed to match against at least one output check with strict mode enabled, it will be nacked and/or re-processed',
        );
        throw new Error('no switch output conditions were met by message');
      }
    }
    return targets;
  }

  private passes(switchCase: SwitchOutputCase, c: number, batch: Batch, i: number): boolean {
    if (switchCase.check === null) return true;
    try {
      return checkPasses(switchCase.check, batch, i);
    } catch (err) {
      this.logger.error(`failed to test case ${c}: ${errorMessage(err)}`);
      return false;
    }
  }

  statuses(): ConnectionStatus[] {
    return this.cases.flatMap((c) => c.output.statuses());
  }

  async flush(): Promise<void> {
    await flushMembers(this.cases.map((c) => c.output));
  }

  async close(): Promise<void> {
    await Promise.allSettled(this.cases.map((c) => c.output.close()));
  }
}

/** The messages a case gets of one batch, and where each sat in it. */
interface Routed {
  messages: Message[];
  positions: number[];
}

/** Where a case's routed batch came from: the batch's index in the call, and its messages' positions. */
interface Origin {
  batch: number;
  positions: number[];
}

/** The error of a call of which `failed` (message positions of its one batch, or batch indices) failed. */
function callFailure(batches: readonly Batch[], failed: number[], err: unknown): Error {
  const reason = wholeFailure(err);
  const ordered = [...new Set(failed)].sort((x, y) => x - y);
  return batches.length === 1
    ? partialError(batches[0]!, ordered, reason)
    : partialGroupError(batches, ordered, reason);
}

/**
 * What a failed case write failed of the call, as message positions of its one batch (`single`)
 * or as indices of its batches: everything routed to the case, unless its output names less.
 */
function failedOrigins(err: unknown, sent: Batch[], origins: Origin[], single: boolean): number[] {
  if (single) {
    const positions = origins[0]!.positions;
    const failed = failedMessages(err, sent[0]!);
    return failed ? failed.map((i) => positions[i]!) : positions;
  }
  const failed = failedBatches(err, sent);
  return (failed ?? origins.map((_, i) => i)).map((i) => origins[i]!.batch);
}

const tooFewCases = (count: number): string[] =>
  count < 2 ? ['attempting to create switch with fewer than 2 cases'] : [];

const REJECT_RETRY_LINT =
  "a 'switch' output with a 'reject' case output must have the field 'switch.retry_until_success' set to 'false', otherwise the 'reject' child output will result in infinite retries";

export const spec = defineComponent({
  name: 'switch',
  kind: 'output',
  status: 'stable',
  categories: ['Utility'],
  summary: 'Routes messages to different outputs depending on their contents.',
  description: `Each message is tested against the cases in order and goes to the output of the first case whose check passes; with \`continue\` it is tested against the next cases too and can reach several outputs. A message that passes no case is dropped (and acknowledged), unless \`strict_mode\` is set: then the whole batch fails and the input redelivers it.

The input is acknowledged only once every output the batch was routed to has written its part. When one fails, the messages routed to it fail and are redelivered (only those its output names, when it says which); what only the other outputs got is not sent again. With \`retry_until_success\` failed writes are retried until they succeed instead, which also spares the outputs that did succeed duplicates of a message \`continue\` sent to several.`,
  fields: [
    field.bool(
      'retry_until_success',
      'Whether a failed write to a case output is retried until it succeeds instead of failing the batch. Recommended when messages can reach more than one output, to avoid duplicates.',
      { default: false },
    ),
    field.bool(
      'strict_mode',
      'Whether a message that passes no case fails the batch (to be redelivered) instead of being dropped.',
      { default: false, advanced: true },
    ),
    field.array(
      field.object('cases', 'The cases, tested in order.', [
        field.mapping(
          'check',
          'A Bloblang query returning a boolean: whether a message goes to this case. Empty always passes.',
          {
            default: '',
            examples: ['this.type == "foo"', 'this.contents.urls.contains("https://benthos.dev/")'],
          },
        ),
        field.component('output', 'output', 'The output for messages that pass the check.'),
        field.bool(
          'continue',
          'Whether a message that passes this case is tested against the next cases too.',
          {
            default: false,
            advanced: true,
          },
        ),
      ]),
    ),
  ],
  lint: (config) => [
    ...tooFewCases(config.cases?.length ?? 0),
    ...(config.retry_until_success && (config.cases ?? []).some((c) => c.output?.type === 'reject')
      ? [REJECT_RETRY_LINT]
      : []),
  ],
  examples: [
    {
      title: 'Route by type',
      config: `input:
  generate:
    count: 10
    interval: ''
    mapping: 'root = {"type": if counter() % 2 == 0 { "foo" } else { "bar" }}'
output:
  switch:
    cases:
      - check: this.type == "foo"
        output:
          file:
            path: /tmp/nekton-foo.jsonl
            codec: lines
      - output:
          stdout: {}
          processors:
            - mapping: 'root.routed = "everything else"'
`,
    },
  ],
  build: async (config, ctx): Promise<Output> => {
    refuseProblems(tooFewCases(config.cases.length));
    const cases: SwitchOutputCase[] = [];
    for (const c of config.cases) {
      let output = await ctx.buildOutput(c.output);
      if (config.retry_until_success)
        output = new RetryOutput(output, RETRY_FOREVER, 0, ctx.logger, ctx.signal);
      cases.push({
        check: c.check ?? null,
        output,
        continue: c.continue,
      });
    }
    return new SwitchOutput(cases, config.strict_mode, ctx.logger);
  },
});
