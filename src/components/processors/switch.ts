// `switch` processor: sends each message through the processors of the first case whose check
// passes (and on through later cases with `fallthrough`), then restores the batch order.
import type { Logger } from 'pino';
import type { Mapping } from '../../bloblang/index.js';
import { defineRootComponent, field } from '../../config/spec.js';
import type { Processor } from '../../engine/component.js';
import { ConfigError, errorMessage } from '../../engine/errors.js';
import { flagged } from '../../engine/processor_helpers.js';
import type { Batch, Message } from '../../message/message.js';
import { checkPasses } from './check.js';
import { buildChildren, closeAll, drive, runChildren, type Steps } from './stepwise.js';

interface SwitchCase {
  /** null: the case always passes. */
  check: Mapping | null;
  processors: Processor[];
  fallthrough: boolean;
}

export class SwitchProcessor implements Processor {
  constructor(
    private readonly cases: SwitchCase[],
    private readonly logger: Logger,
  ) {}

  process(batch: Batch): Batch[] | Promise<Batch[]> {
    return drive(this.steps(batch));
  }

  private *steps(batch: Batch): Steps<Batch[]> {
    // Messages travel with their original position so the result can be put back in order.
    let remaining: Message[] = batch.slice();
    let remainingAt: number[] = batch.map((_m, i) => i);
    let carried: Message[] = [];
    let carriedAt: number[] = [];
    const result: Message[] = [];
    const resultAt: number[] = [];

    for (let c = 0; c < this.cases.length; c++) {
      const switchCase = this.cases[c]!;
      const passed = carried;
      const passedAt = carriedAt;
      const failed: Message[] = [];
      const failedAt: number[] = [];
      for (let j = 0; j < remaining.length; j++) {
        const msg = remaining[j]!;
        let pass = true;
        if (switchCase.check !== null) {
          try {
            pass = checkPasses(switchCase.check, remaining, j);
          } catch (err) {
            // A failing check flags the message, which then leaves the switch untouched.
            this.logger.error(`failed to test case ${c}: ${errorMessage(err)}`);
            result.push(flagged(msg, err));
            resultAt.push(remainingAt[j]!);
            continue;
          }
        }
        if (pass) {
          passed.push(msg);
          passedAt.push(remainingAt[j]!);
        } else {
          failed.push(msg);
          failedAt.push(remainingAt[j]!);
        }
      }
      carried = [];
      carriedAt = [];
      remaining = failed;
      remainingAt = failedAt;
      if (passed.length === 0) continue;

      const outputs = yield runChildren(switchCase.processors, passed);
      const into = switchCase.fallthrough ? carried : result;
      const intoAt = switchCase.fallthrough ? carriedAt : resultAt;
      placeOutputs(outputs, passedAt, into, intoAt);
    }

    for (let j = 0; j < remaining.length; j++) {
      result.push(remaining[j]!);
      resultAt.push(remainingAt[j]!);
    }
    return result.length > 0 ? [inOriginalOrder(result, resultAt)] : [];
  }

  close(): Promise<void> {
    return closeAll(this.cases.flatMap((c) => c.processors));
  }
}

/**
 * Gives each output of a case a position. When the case kept the message count, output k takes
 * the position of input k; otherwise (it filtered or split) the outputs stay together at the
 * first input's position.
 */
function placeOutputs(outputs: Batch[], inputAt: number[], into: Message[], intoAt: number[]): void {
  let count = 0;
  for (const b of outputs) count += b.length;
  let k = 0;
  for (const b of outputs) {
    for (const m of b) {
      into.push(m);
      intoAt.push(count === inputAt.length ? inputAt[k]! : inputAt[0]!);
      k++;
    }
  }
}

function inOriginalOrder(messages: Message[], positions: number[]): Batch {
  const order = messages.map((_m, i) => i);
  order.sort((a, b) => positions[a]! - positions[b]!);
  return order.map((i) => messages[i]!);
}

const caseFields = [
  field.mapping(
    'check',
    'A Bloblang query returning a boolean: whether a message runs this case. Empty always passes. When the query fails the message is flagged as failed and tested against no other case.',
    {
      default: '',
      examples: ['this.type == "foo"', 'this.contents.urls.contains("https://benthos.dev/")'],
    },
  ),
  field.array(
    field.component('processor', 'processors', 'The processors to run on the messages that pass the check.', {
      default: [],
    }),
  ),
  field.bool(
    'fallthrough',
    'Whether messages that passed this case also run the processors of the next case (without testing its check).',
    { default: false, advanced: true },
  ),
  field.bool('continue', 'Accepted for compatibility; it has no effect on the switch processor.', {
    default: false,
    advanced: true,
  }),
];

/** A case with no processors is refused, as the reference refuses it when it builds. */
function caseProblems(cases: readonly { processors: readonly unknown[] }[]): string[] {
  return cases.flatMap((c, i) =>
    c.processors.length === 0
      ? [
          `case '${i}' parse error: case has no processors, in order to have a no-op case use a \`noop\` processor`,
        ]
      : [],
  );
}

export const spec = defineRootComponent({
  name: 'switch',
  kind: 'processor',
  status: 'stable',
  categories: ['Composition'],
  summary: 'Runs the processors of the first case whose check passes for each message.',
  description: `Each message is tested against the cases in order; the processors of the first case that passes run on it, and with \`fallthrough\` the processors of the next case run too. Messages that pass no case go through unchanged.

The messages of a batch are checked one by one, and those that pass the same case are processed together as a batch. The result is a single batch in the original order; processors that split or filter messages inside a case keep their outputs together at the position of the case's first message.`,
  root: field.array(field.object('', 'The cases, tested in order.', caseFields)),
  examples: [
    {
      title: 'Route by type',
      config: `input:
  generate:
    count: 4
    interval: ''
    mapping: 'root = {"type": if counter() % 2 == 0 { "even" } else { "odd" }}'
pipeline:
  processors:
    - switch:
        - check: this.type == "even"
          processors:
            - mapping: 'root.label = "an even message"'
        - processors:
            - mapping: 'root = deleted()'
output:
  stdout: {}
`,
    },
  ],
  lint: caseProblems,
  build: async (config, ctx): Promise<Processor> => {
    // Also refused here for callers that build without linting first.
    const [problem] = caseProblems(config);
    if (problem) throw new ConfigError(problem);
    const cases: SwitchCase[] = [];
    for (const c of config) {
      cases.push({
        check: c.check ?? null,
        processors: await buildChildren(c.processors, ctx),
        fallthrough: c.fallthrough,
      });
    }
    return new SwitchProcessor(cases, ctx.logger);
  },
});
