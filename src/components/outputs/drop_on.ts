// The `drop_on` output: writes to a child output and drops (acks) messages whose write failed for
// a configured reason, or that the child did not take within `back_pressure`.
import type { Logger } from 'pino';
import { compileConfigPatterns } from '../../config/config_patterns.js';
import { defineComponent, field } from '../../config/spec.js';
import { wholeFailure } from '../../engine/batch_error.js';
import type { ConnectionStatus, Output } from '../../engine/component.js';
import { errorMessage } from '../../engine/errors.js';
import type { Batch } from '../../message/message.js';
import { type Pattern, patternProblem } from '../../regexp/index.js';

/** An optional list as given (absent: empty). */
const present = (list: readonly (string | undefined)[] | undefined): string[] =>
  (list ?? []).filter((item): item is string => item !== undefined);

const INEFFECTIVE = "field 'error_patterns' is ineffective when 'error' is set to `true`";

export interface DropOnOptions {
  onError: boolean;
  patterns: readonly Pattern[];
  /** 0: wait as long as the child takes. */
  backPressureMs: number;
  logger?: Logger;
}

export class DropOnOutput implements Output {
  /** A write gave up waiting and is still pending in the child: later writes drop at once until it settles. */
  private stalled: Promise<unknown> | null = null;

  constructor(
    private readonly inner: Output,
    private readonly options: DropOnOptions,
  ) {}

  async write(batch: Batch): Promise<void> {
    let result: Error | null;
    if (this.options.backPressureMs > 0) {
      result = await this.writeWithDeadline(batch);
    } else {
      result = await this.inner.write(batch).then(
        () => null,
        (err: unknown) => wholeFailure(err),
      );
    }
    if (result && this.drops(result)) return;
    if (result) throw result;
  }

  statuses(): ConnectionStatus[] {
    return this.inner.statuses();
  }

  async flush(): Promise<void> {
    await this.inner.flush?.();
  }

  async close(): Promise<void> {
    await this.inner.close();
  }

  private drops(err: Error): boolean {
    if (err instanceof BackPressureError) {
      this.options.logger?.warn('Message dropped due to back pressure.');
      return this.options.onError;
    }
    if (this.options.onError) {
      this.options.logger?.warn(`Message dropped due to: ${errorMessage(err)}`);
      return true;
    }
    const text = err.message;
    const i = this.options.patterns.findIndex((p) => p.test(text));
    if (i === -1) return false;
    this.options.logger?.warn(`Message dropped due to error matching pattern ${i}: ${text}`);
    return true;
  }

  /** The child's outcome, or a BackPressureError once `back_pressure` passed (or at once while stalled). */
  private writeWithDeadline(batch: Batch): Promise<Error | null> {
    const ms = this.options.backPressureMs;
    if (this.stalled) return Promise.resolve(new BackPressureError(ms));
    const pending = this.inner.write(batch).then(
      () => null,
      (err: unknown) => wholeFailure(err),
    );
    return new Promise<Error | null>((resolve) => {
      const timer = setTimeout(() => {
        const marker = pending.finally(() => {
          if (this.stalled === marker) this.stalled = null;
        });
        this.stalled = marker;
        resolve(new BackPressureError(ms));
      }, ms);
      pending.then((outcome) => {
        clearTimeout(timer);
        resolve(outcome);
      });
    });
  }
}

class BackPressureError extends Error {
  constructor(ms: number) {
    super(`experienced back pressure beyond: ${ms}ms`);
  }
}

export const spec = defineComponent({
  name: 'drop_on',
  kind: 'output',
  status: 'stable',
  categories: ['Utility'],
  summary:
    'Writes messages to a child output; when a write fails for one of the configured reasons, the messages are dropped (acked) instead of being retried or nacked.',
  description: `Outputs normally apply back pressure while their target is unreachable, and every message that fails to be delivered is retried or nacked. \`drop_on\` relaxes that for a child output whose messages may be lost: \`error: true\` drops on any error, \`error_patterns\` only on errors whose text matches one of the (RE2) patterns, and \`back_pressure\` drops a message the child did not take within that time.

Once a message was dropped for back pressure, later messages are dropped at once until the stalled write settles. With \`error: false\`, messages dropped for back pressure are reported as failed (nacked or retried) rather than acked.`,
  fields: [
    field.bool(
      'error',
      'Drop messages when the child output returns an error of any kind (such as an `http_client` 4XX).',
      {
        default: false,
      },
    ),
    field.array(
      field.string(
        'error_patterns',
        'Regular expressions (RE2): a message is dropped when the error of the child output matches any of them.',
        { optional: true, examples: [['and that was really bad$'], ['roughly [0-9]+ issues occurred']] },
      ),
    ),
    field.duration(
      'back_pressure',
      'The longest time to wait for the child output to take a message before it is dropped instead.',
      { optional: true, examples: ['30s', '1m'] },
    ),
    field.component('output', 'output', 'The child output to wrap.'),
  ],
  examples: [
    {
      title: 'Dropping failed HTTP requests',
      config: `input:
  stdin: {}
output:
  broker:
    pattern: fan_out
    outputs:
      - file:
          path: /tmp/nekton-all.jsonl
          codec: lines
      - drop_on:
          error: true
          output:
            http_client:
              url: http://localhost:4195/post
              verb: POST
`,
    },
  ],
  lint: (config) => {
    const problems: string[] = [];
    const patterns = present(config.error_patterns);
    if (patterns.length > 0 && config.error) problems.push(INEFFECTIVE);
    patterns.forEach((p, i) => {
      const problem = patternProblem(p);
      if (problem) problems.push(`error pattern ${i} failed to compile: ${problem}`);
    });
    return problems;
  },
  build: async (config, ctx): Promise<Output> => {
    const patterns = compileConfigPatterns(present(config.error_patterns), 'drop_on: error_patterns');
    const inner = await ctx.buildOutput(config.output);
    return new DropOnOutput(inner, {
      onError: config.error,
      patterns,
      backPressureMs: config.back_pressure ?? 0,
      logger: ctx.logger,
    });
  },
});
