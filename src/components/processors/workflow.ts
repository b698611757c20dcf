// `workflow`: runs a graph of `branch` processors in stages, the branches of a stage at the same
// time, and records per message which branches succeeded, were skipped or failed.
import type { Logger } from 'pino';
import { type MappingTargets, mappingTargets } from '../../bloblang/index.js';
import { defineComponent, type FieldSpec, field, type RawConfigOf } from '../../config/spec.js';
import type { Processor } from '../../engine/component.js';
import type { Resources } from '../../engine/context.js';
import { ConfigError, errorMessage } from '../../engine/errors.js';
import { ObservedProcessor } from '../../engine/observed_processor.js';
import { flagged } from '../../engine/processor_helpers.js';
import type { Batch } from '../../message/message.js';
import { BranchProcessor, type BranchResults, spec as branchSpec } from './branch.js';
import { drive } from './stepwise.js';
import { checkBranchName, checkOrder, goList, inferStages } from './workflow_dag.js';
import { BranchRecord, dotPath, skipsFromRecord, withRecord } from './workflow_meta.js';

type Stages = readonly (readonly string[])[];
type StageRun = Generator<Promise<BranchResults[]>, Batch[], BranchResults[]>;

/** Runs a generator that yields only when some branch of a stage answered with a promise. */
function driveStages(run: StageRun): Batch[] | Promise<Batch[]> {
  const first = run.next();
  if (first.done) return first.value;
  return first.value.then(async (settled) => {
    let next = run.next(settled);
    while (!next.done) next = run.next(await next.value);
    return next.value;
  });
}

/** The branch inside a processor resource, or null when the resource is not a branch. */
function branchOf(p: Processor): BranchProcessor | null {
  let inner = p;
  // A stream's view of a resource wraps it once more (streams/observed_resources.ts).
  while (inner instanceof ObservedProcessor) inner = inner.inner;
  return inner instanceof BranchProcessor ? inner : null;
}

export class WorkflowProcessor implements Processor {
  constructor(
    private readonly inline: ReadonlyMap<string, BranchProcessor>,
    /** Branches that live in processor resources, looked up for every batch. */
    private readonly resourceNames: readonly string[],
    /** The stages; null when they are inferred for every batch (resource branches may change). */
    private readonly stages: Stages | null,
    private readonly metaPath: readonly string[],
    private readonly resources: Resources,
    private readonly logger: Logger,
  ) {}

  process(batch: Batch): Batch[] | Promise<Batch[]> {
    if (this.resourceNames.length === 0) return driveStages(this.run(batch, this.inline, this.stages!));
    return this.withResourceBranches(batch);
  }

  private async withResourceBranches(batch: Batch): Promise<Batch[]> {
    const branches = new Map(this.inline);
    // Each resource stays in use (not closed by a replacement) until the batch is done.
    const locked = async (i: number): Promise<Batch[]> => {
      if (i === this.resourceNames.length) {
        let stages = this.stages;
        if (stages === null) {
          try {
            stages = inferStages(targetsOf(branches));
          } catch (err) {
            throw new Error(`failed to resolve DAG: ${errorMessage(err)}`);
          }
        }
        return driveStages(this.run(batch, branches, stages));
      }
      const name = this.resourceNames[i]!;
      if (!this.resources.has('processor', name)) throw new Error(`missing branch resource: ${name}`);
      return this.resources.useProcessor(name, async (p) => {
        const branch = branchOf(p);
        if (!branch) throw new Error(`missing branch resource: ${name}`);
        branches.set(name, branch);
        return locked(i + 1);
      });
    };
    try {
      return await locked(0);
    } catch (err) {
      this.logger.error(`failed to establish workflow: ${errorMessage(err)}`);
      return [batch.map((m) => flagged(m, err))];
    }
  }

  private *run(batch: Batch, branches: ReadonlyMap<string, BranchProcessor>, stages: Stages): StageRun {
    const known = new Set(branches.keys());
    const skips = batch.map((m) => skipsFromRecord(m, this.metaPath, known));
    const records = batch.map(() => new BranchRecord(stages));
    const current = batch.slice();

    for (const stage of stages) {
      // Every branch of a stage maps its requests from the messages as the stage began.
      const snapshot = current.slice();
      const made = stage.map((id) =>
        drive(
          branches.get(id)!.results(
            snapshot,
            skips.map((s) => s.has(id)),
          ),
        ),
      );
      const settled: BranchResults[] = made.some((m) => m instanceof Promise)
        ? yield Promise.all(made)
        : (made as BranchResults[]);

      // Results merge one branch after another, in stage order, onto the messages so far.
      stage.forEach((id, k) => {
        const result = settled[k]!;
        if (result.failure) {
          this.logger.error(`failed to perform enrichment '${id}': ${result.failure.message}`);
          for (const record of records) record.fail(id, result.failure.message);
          return;
        }
        for (let i = 0; i < batch.length; i++) {
          if (result.results[i] === null) records[i]!.markSkipped(id);
          const failure = result.failures[i];
          if (failure) records[i]!.fail(id, failure.message);
        }
        const mapFailures = branches.get(id)!.overlay(current, result);
        mapFailures.forEach((failure, i) => {
          if (failure) records[i]!.fail(id, failure.message);
        });
      });
    }

    for (let i = 0; i < current.length; i++) {
      const record = records[i]!;
      if (this.metaPath.length > 0) {
        try {
          current[i] = withRecord(current[i]!, this.metaPath, record.toObject());
        } catch (err) {
          this.logger.error(`failed to parse message for meta update: ${errorMessage(err)}`);
          current[i] = flagged(current[i]!, err);
        }
      } else if (record.failed.size > 0) {
        const failed = [...record.failed.keys()].sort();
        current[i] = flagged(current[i]!, new Error(`workflow branches failed: ${goList(failed)}`));
      }
    }
    return [current];
  }

  async close(): Promise<void> {
    await Promise.allSettled([...this.inline.values()].map((b) => b.close()));
  }
}

function targetsOf(branches: ReadonlyMap<string, BranchProcessor>): Map<string, MappingTargets> {
  const out = new Map<string, MappingTargets>();
  for (const [id, branch] of branches) out.set(id, branch.targets());
  return out;
}

/** What `branch` reads from its own config; each inline branch is built by `branch` itself. */
type BranchRaw = Parameters<typeof branchSpec.build>[0];

/**
 * The inline branches, declared with `branch`'s own fields. Left unparsed here: each is handed as
 * written to `branch`'s factory, which parses its own mappings.
 */
const branchesField = {
  ...field.map(
    field.object('branches', 'Named `branch` processors that make up the workflow.', branchSpec.fields, {
      default: {},
    }),
  ),
  parse: undefined,
} as FieldSpec<'branches', Record<string, BranchRaw>>;

const fields = [
  field.string(
    'meta_path',
    'A dot path where the record of which branches succeeded, were skipped or failed is kept. Empty disables the record.',
    { default: 'meta.workflow' },
  ),
  field.array2d(
    field.string(
      'order',
      'Stages of branch names, run in order; the branches of a stage run in parallel. Names not under `branches` are `branch` processor resources. Empty infers the stages from the mappings.',
      {
        default: [],
        examples: [
          [['foo', 'bar'], ['baz']],
          [['foo'], ['bar'], ['baz']],
        ],
      },
    ),
  ),
  field.array(
    field.string(
      'branch_resources',
      'Names of `branch` processor resources to include, ordered automatically with the branches under `branches`. Not needed for resources named in `order`.',
      { default: [], advanced: true },
    ),
  ),
  branchesField,
] as const;

type WorkflowConfig = RawConfigOf<typeof fields>;

/** Lint: the checks the reference makes when it builds, wherever they need no resources. */
function lintWorkflow(config: WorkflowConfig): string[] {
  const names = Object.keys(config.branches);
  let targets: Map<string, MappingTargets>;
  try {
    targets = new Map(
      Object.entries(config.branches).map(([name, b]) => [
        name,
        {
          reads: b.request_map === '' ? [] : mappingTargets(b.request_map).reads,
          writes: b.result_map === '' ? [] : mappingTargets(b.result_map).writes,
        },
      ]),
    );
  } catch {
    return []; // a mapping that does not parse is reported by its own field's check
  }
  try {
    for (const name of names) checkBranchName(name);
    for (const name of config.branch_resources)
      if (names.includes(name))
        throw new Error(`branch resource name '${name}' collides with an explicit branch`);
    if (config.order.length > 0) checkOrder(config.order, [...names, ...config.branch_resources]);
    else if (config.branch_resources.length === 0) inferStages(targets);
  } catch (err) {
    return [errorMessage(err)];
  }
  return [];
}

export const spec = defineComponent({
  name: 'workflow',
  kind: 'processor',
  status: 'stable',
  categories: ['Composition'],
  summary: 'Runs a graph of `branch` processors, the independent ones at the same time.',
  description: `Useful when a message is enriched by several slow calls (\`http\`, \`cache\`, ...) that do not depend on each other: they run in parallel for each message instead of one after another.

Branches run in stages. \`order\` lists the stages explicitly (\`[[foo, bar], [baz]]\`); without it the stages are inferred: a branch whose \`request_map\` reads a field another branch's \`result_map\` writes runs after it (reads are \`this\` paths, \`json()\` and metadata; \`content()\` and variables do not count). Branches that depend on each other in a circle are an error at lint and at build. Every branch of a stage maps its request from the message as the stage began; the results are then merged in turn.

A branch is skipped for a message when its \`request_map\` deletes the request (\`root = deleted()\`).

**Structured metadata.** When \`meta_path\` is not empty, each message gets an object at that path saying which branches \`succeeded\`, were \`skipped\`, or \`failed\` (branch name → error):

\`\`\`json
{"succeeded": ["foo"], "skipped": ["bar"], "failed": {"baz": "the error from the branch"}}
\`\`\`

A failed branch does not flag the message; query the record instead (\`this.meta.workflow.failed.length() | 0 > 0\`). When a message already carries a record (a replay), the branches it lists as succeeded or skipped are skipped, failed ones run again, and the old record is kept under \`previous\`. A non-empty \`apply\` list in the record runs only the branches it names. A message that is not JSON cannot hold the record and is flagged. With \`meta_path: ""\` no record is written and a message with failed branches is flagged (\`workflow branches failed: [baz]\`), for \`catch\` and \`try\`.

**Resources.** A name in \`order\` that is not under \`branches\` is a \`branch\` processor resource, as are the names in \`branch_resources\` (ordered automatically with the others). Resources are looked up for every batch, so a replaced resource applies at once; one that is missing or not a \`branch\` flags the batch.`,
  fields,
  lint: lintWorkflow,
  examples: [
    {
      title: 'Two lookups in parallel, then one that needs both',
      config: `input:
  generate:
    count: 1
    interval: ''
    mapping: 'root = {"id": "a1"}'
cache_resources:
  - label: names
    memory:
      init_values:
        a1: Ada
  - label: cities
    memory:
      init_values:
        a1: London
pipeline:
  processors:
    - workflow:
        branches:
          name:
            request_map: 'root = this.id'
            processors:
              - cache:
                  resource: names
                  operator: get
                  key: '\${! content() }'
            result_map: 'root.name = content().string()'
          city:
            request_map: 'root = this.id'
            processors:
              - cache:
                  resource: cities
                  operator: get
                  key: '\${! content() }'
            result_map: 'root.city = content().string()'
          greeting:
            request_map: 'root = {"name": this.name, "city": this.city}'
            processors:
              - mapping: 'root = "%s from %s".format(this.name, this.city)'
            result_map: 'root.greeting = content().string()'
output:
  stdout: {}
`,
    },
  ],
  build: async (config, ctx): Promise<Processor> => {
    const inline = new Map<string, BranchProcessor>();
    for (const [name, branchConfig] of Object.entries(config.branches)) {
      checkOrFail(() => checkBranchName(name));
      inline.set(name, (await branchSpec.build(branchConfig, ctx)) as BranchProcessor);
    }
    const resourceNames: string[] = [];
    const addResource = (name: string) => {
      if (!ctx.resources.has('processor', name))
        throw new ConfigError(`processor resource '${name}' was not found`);
      resourceNames.push(name);
    };
    for (const name of config.branch_resources) {
      if (inline.has(name))
        throw new ConfigError(`branch resource name '${name}' collides with an explicit branch`);
      addResource(name);
    }
    for (const tier of config.order)
      for (const name of tier) if (!inline.has(name) && !resourceNames.includes(name)) addResource(name);

    let stages: Stages | null = null;
    if (config.order.length > 0) {
      checkOrFail(() => checkOrder(config.order, [...inline.keys(), ...resourceNames]));
      stages = config.order;
    } else if (resourceNames.length === 0) {
      stages = checkOrFail(() => inferStages(targetsOf(inline)));
      ctx.logger.info(`automatically resolved workflow DAG: ${JSON.stringify(stages)}`);
    }
    return new WorkflowProcessor(
      inline,
      resourceNames,
      stages,
      dotPath(config.meta_path),
      ctx.resources,
      ctx.logger,
    );
  },
});

function checkOrFail<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    throw new ConfigError(errorMessage(err));
  }
}
