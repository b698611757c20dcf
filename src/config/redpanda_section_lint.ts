// The top-level `redpanda` section and the redpanda_common components that connect with it:
// checks that need both, or the section's own value combinations, reported at their lines.
import { isMap, isScalar, isSeq, type Node } from 'yaml';
import { entryOf } from './http_attach_lint.js';
import type { ConfigLinter } from './linter.js';

const SUPPORTED_SASL = ['PLAIN', 'SCRAM-SHA-256', 'SCRAM-SHA-512', 'OAUTHBEARER', 'NONE'];

function scalarText(node: Node | null | undefined): string | undefined {
  return isScalar(node) && node.value !== null ? String(node.value) : undefined;
}

function hasSeedBrokers(section: Node | null | undefined): boolean {
  const brokers = entryOf(section, 'seed_brokers');
  return isSeq(brokers) && brokers.items.some((b) => (scalarText(b as Node) ?? '').trim() !== '');
}

/**
 * Every component that connects with the section when there is none: redpanda_common always, a
 * redpanda input or output written without seed_brokers of its own.
 */
export function lintRedpandaUsers(linter: ConfigLinter, connected: boolean): void {
  if (connected) return;
  for (const c of linter.components) {
    if (c.name === 'redpanda_common')
      linter.report(
        c.node,
        `redpanda_common ${c.kind} needs the top-level redpanda section with seed_brokers, which this config does not have`,
      );
    else if (
      c.name === 'redpanda' &&
      (c.kind === 'input' || c.kind === 'output') &&
      !hasSeedBrokers(c.settings)
    )
      linter.report(
        c.node,
        `redpanda ${c.kind}: seed_brokers is not set and there is no top-level redpanda section with seed_brokers to connect with`,
      );
  }
}

/**
 * A whole service config: its redpanda_common components against its own section (or, for a
 * resource file, `known`: whether the main config has one), and the section's own values.
 */
export function lintRedpandaSection(linter: ConfigLinter, known?: boolean): void {
  const section = entryOf(linter.root, 'redpanda');
  const connected = known ?? hasSeedBrokers(section);
  lintRedpandaUsers(linter, connected);
  // Options match case-insensitively, as the fields' own checks do.
  const partitioner = scalarText(entryOf(section, 'partitioner'))?.toLowerCase();
  for (const c of linter.components) {
    if (c.name !== 'redpanda_common' || !connected || c.kind !== 'output') continue;
    const partition = (scalarText(entryOf(c.settings, 'partition')) ?? '') !== '';
    if (partition && partitioner !== 'manual')
      linter.report(
        c.node,
        'a partition cannot be specified unless the partitioner is set to manual (redpanda.partitioner)',
      );
    if (!partition && partitioner === 'manual')
      linter.report(
        c.node,
        'a partition must be specified when the partitioner is set to manual (redpanda.partitioner)',
      );
  }
  if (isMap(section)) sectionProblems(linter, section);
}

/** The section's own combinations, in the reference's words, and what nekton does not do. */
function sectionProblems(linter: ConfigLinter, section: Node): void {
  for (const name of ['logs_topic', 'status_topic']) {
    const topic = entryOf(section, name);
    if (topic && (scalarText(topic) ?? '') !== '' && !hasSeedBrokers(section))
      linter.report(topic, `${name} needs seed_brokers in the redpanda section to send to`);
  }
  const idempotent = (scalarText(entryOf(section, 'idempotent_write')) ?? 'true').toLowerCase() === 'true';
  const acks = (scalarText(entryOf(section, 'acks')) ?? 'all').toLowerCase();
  const requests = scalarText(entryOf(section, 'max_in_flight_requests')) ?? '1';
  // An acks that is no option at all is reported by the field's own check.
  if (idempotent && (acks === 'leader' || acks === 'none'))
    linter.report(section, 'idempotent_write requires acks to be set to all');
  if (idempotent && requests !== '1')
    linter.report(
      section,
      'idempotent_write requires max_in_flight_requests to be 1, set idempotent_write to false to use higher values',
    );
  const sasl = entryOf(section, 'sasl');
  if (!isSeq(sasl)) return;
  const chosen = (sasl.items as Node[])
    .map((entry) => scalarText(entryOf(entry, 'mechanism')))
    .find((m) => m !== undefined && m.toLowerCase() !== 'none');
  if (chosen !== undefined && !SUPPORTED_SASL.includes(chosen.toUpperCase()))
    linter.report(sasl, `sasl: mechanism ${chosen} is not supported by nekton`);
}
