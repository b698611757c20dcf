// `branch`: maps each message to a request, runs processors on the requests, and maps the
// results back onto the original messages, which otherwise stay as they were.
import type { Logger } from 'pino';
import { type Mapping, type MappingTargets, mappingTargets } from '../../bloblang/index.js';
import {
  defineComponent,
  type FieldOptions,
  type FieldParseContext,
  type FieldSpec,
  field,
  type RawConfigOf,
} from '../../config/spec.js';
import type { Processor } from '../../engine/component.js';
import { ConfigError, errorMessage } from '../../engine/errors.js';
import { flagged } from '../../engine/processor_helpers.js';
import type { Batch, Message } from '../../message/message.js';
import { buildChildren, closeAll, drive, runChildren, type Steps } from './stepwise.js';

/** A mapping and its text: `workflow` orders branches by what the texts read and write. */
export interface MappingWithText {
  mapping: Mapping | undefined;
  text: string;
}

/** A mapping field whose factory value keeps the text it was compiled from. */
function mappingWithText<const N extends string>(name: N, description: string, options: FieldOptions) {
  const compiled = field.mapping(name, description, options);
  const parse = (raw: string, ctx: FieldParseContext, path: string): MappingWithText => ({
    mapping: compiled.parse?.(raw, ctx, path),
    text: raw,
  });
  return { ...compiled, parse } as FieldSpec<N, string, MappingWithText>;
}

const NO_CHILDREN = 'the branch processor requires at least one child processor';

const fields = [
  mappingWithText(
    'request_map',
    'A Bloblang mapping building the request from each message. Empty starts from an exact copy of the message, metadata included.',
    {
      default: '',
      examples: [
        'root = {"id": this.doc.id, "content": this.doc.body.text}',
        'root = if this.type == "foo" { this.foo.request } else { deleted() }',
      ],
    },
  ),
  field.array(
    field.component(
      'processor',
      'processors',
      'The processors to run on the requests. They must not change the number or order of messages.',
    ),
  ),
  mappingWithText(
    'result_map',
    'A Bloblang mapping merging each result (`this`) into its original message (`root` starts as the original). Empty leaves the original unchanged.',
    {
      default: '',
      examples: [
        'meta foo_code = metadata("code")\nroot.foo_result = this',
        'root.raw_result = content().string()',
      ],
    },
  ),
] as const;

/** A branch as written (the `workflow` processor holds several under `branches`). */
export type BranchConfig = RawConfigOf<typeof fields>;

/**
 * A branch's requests run through its children, lined up with the batch they came from. The
 * `workflow` processor runs this step for several branches at once, then merges each in turn.
 */
export interface BranchResults {
  /** results[i]: the result for batch[i]; null when it was not sent (skipped) or failed. */
  readonly results: (Message | null)[];
  /** failures[i]: why batch[i] failed in the branch (request map or child processors). */
  readonly failures: (Error | null)[];
  /** Set when the children broke the alignment: every message sent failed for this reason. */
  readonly failure: Error | null;
}

export class BranchProcessor implements Processor {
  private targetsFound: MappingTargets | null = null;

  constructor(
    private readonly requestMap: Mapping | null,
    private readonly children: Processor[],
    private readonly resultMap: Mapping | null,
    private readonly logger: Logger,
    /** The mapping texts, read by `workflow` to order its branches. */
    private readonly mappingTexts: { request: string; result: string } = { request: '', result: '' },
  ) {}

  process(batch: Batch): Batch[] | Promise<Batch[]> {
    return drive(this.steps(batch));
  }

  /** What the request map reads and the result map writes (for `workflow` ordering). */
  targets(): MappingTargets {
    this.targetsFound ??= {
      reads: this.mappingTexts.request === '' ? [] : mappingTargets(this.mappingTexts.request).reads,
      writes: this.mappingTexts.result === '' ? [] : mappingTargets(this.mappingTexts.result).writes,
    };
    return this.targetsFound;
  }

  private *steps(batch: Batch): Steps<Batch[]> {
    const made = yield* this.results(batch, null);
    const out = batch.slice();
    for (let i = 0; i < batch.length; i++) {
      const failure = made.failures[i];
      if (failure) out[i] = flagged(batch[i]!, failure);
    }
    const mapFailures = this.overlay(out, made);
    for (let i = 0; i < batch.length; i++) {
      const failure = mapFailures[i];
      if (failure) out[i] = flagged(batch[i]!, failure);
    }
    return [out];
  }

  /**
   * Maps each message to a request (none where skip[i] is true or the request map deleted it),
   * runs the children on the requests and lines the results up with the batch.
   */
  *results(batch: Batch, skip: readonly boolean[] | null): Steps<BranchResults> {
    const results: (Message | null)[] = new Array(batch.length).fill(null);
    const failures: (Error | null)[] = new Array(batch.length).fill(null);
    // requests[i] is the request made from batch[i]; null when skipped (deleted) or failed.
    const requests: (Message | null)[] = new Array(batch.length).fill(null);
    const sent: Batch = [];
    for (let i = 0; i < batch.length; i++) {
      if (skip?.[i]) continue;
      const request = this.request(batch, i, failures);
      requests[i] = request;
      if (request !== null) sent.push(request);
    }
    if (sent.length === 0) return { results, failures, failure: null };

    const produced = yield runChildren(this.children, sent);
    const flat: Batch = [];
    for (const b of produced) for (const m of b) flat.push(m);
    if (flat.length !== sent.length) {
      const why =
        flat.length === 0
          ? 'child processors resulted in zero messages'
          : `message count from branch processors does not match request, started with ${sent.length} messages, finished with ${flat.length}`;
      this.logger.error(`failed to align branch result: ${why}`);
      const failure = new Error(why);
      for (let i = 0; i < batch.length; i++) if (requests[i] !== null) failures[i] = failure;
      return { results, failures, failure };
    }

    // Line the results up with the messages they came from.
    let k = 0;
    for (let i = 0; i < batch.length; i++) {
      if (requests[i] === null) continue;
      const result = flat[k++]!;
      if (result.error) failures[i] = new Error(`processors failed: ${result.error.message}`);
      else results[i] = result;
    }
    return { results, failures, failure: null };
  }

  /**
   * Merges each result into onto[i] (replaced by the merged copy) with the result map; returns
   * why each merge failed, leaving onto[i] as it was.
   */
  overlay(onto: Batch, made: BranchResults): (Error | null)[] {
    const failures: (Error | null)[] = new Array(onto.length).fill(null);
    if (!this.resultMap) return failures;
    for (let i = 0; i < onto.length; i++) {
      if (!made.results[i]) continue;
      try {
        const merged = this.resultMap.applyOnto(onto[i]!, made.results as Message[], i);
        if (merged !== null) onto[i] = merged;
      } catch (err) {
        this.logger.debug(`failed to map result ${i}: ${errorMessage(err)}`);
        failures[i] = new Error(`result mapping failed: ${errorMessage(err)}`);
      }
    }
    return failures;
  }

  /** The request for batch[i], or null when the request map deleted it or failed (noted in failures). */
  private request(batch: Batch, i: number, failures: (Error | null)[]): Message | null {
    const original = batch[i]!;
    let request: Message;
    if (this.requestMap === null) {
      request = original.copy();
    } else {
      try {
        // The request starts empty but keeps the original's metadata.
        const blank = original.copy();
        blank.setBytes('');
        const mapped = this.requestMap.applyOnto(blank, batch, i);
        if (mapped === null) return null;
        request = mapped;
      } catch (err) {
        this.logger.debug(`failed to map request ${i}: ${errorMessage(err)}`);
        failures[i] = new Error(`request mapping failed: ${errorMessage(err)}`);
        return null;
      }
    }
    // Errors from before the branch are not carried into it.
    request.error = null;
    return request;
  }

  close(): Promise<void> {
    return closeAll(this.children);
  }
}

export const spec = defineComponent({
  name: 'branch',
  kind: 'processor',
  status: 'stable',
  categories: ['Composition'],
  summary:
    'Maps each message into a request, runs processors on the requests, and maps the results back into the original messages.',
  description: `Useful to enrich a message with the output of processors that would otherwise replace it, such as \`http\` or \`cache\`.

Metadata added inside the branch is not copied back unless \`result_map\` says so (\`meta = metadata()\` copies all of it; \`@\` reads the original message's metadata).

Errors: when \`request_map\` fails the child processors do not run for that message; when a child processor fails, \`result_map\` does not run; when \`result_map\` fails the message stays unchanged. In each case the message is flagged as failed. A request map that sets \`root = deleted()\` skips the branch for that message. The child processors must keep the number and order of messages.`,
  fields,
  examples: [
    {
      title: 'Enrich a message from a cache',
      config: `input:
  generate:
    count: 1
    interval: ''
    mapping: 'root = {"id": "foo", "body": "hello"}'
cache_resources:
  - label: descriptions
    memory:
      init_values:
        foo: a cool document
pipeline:
  processors:
    - branch:
        request_map: 'root = this.id'
        processors:
          - cache:
              resource: descriptions
              operator: get
              key: '\${! content() }'
        result_map: 'root.description = content().string()'
output:
  stdout: {}
`,
    },
  ],
  lint: (config) => (config.processors.length === 0 ? [NO_CHILDREN] : []),
  build: async (config, ctx): Promise<Processor> => {
    // Also a lint; kept because `workflow` builds its inline branches without their lint hook.
    if (config.processors.length === 0) throw new ConfigError(NO_CHILDREN);
    const { request_map: request, result_map: result } = config;
    return new BranchProcessor(
      request.mapping ?? null,
      await buildChildren(config.processors, ctx),
      result.mapping ?? null,
      ctx.logger,
      { request: request.text, result: result.text },
    );
  },
});
