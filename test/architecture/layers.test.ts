// Layers point down: every import in src/ goes to the importer's own layer or a lower one (see
// LAYERS in layer_rules.ts), type-only imports included, and no files import each other in a cycle.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { type ImportEdge, importsOf, readImportGraph } from './import_graph.js';
import { importCycles, upwardImports } from './layer_rules.js';

const SRC = join(import.meta.dirname, '..', '..', 'src');

const describeEdge = (edge: ImportEdge) => `src/${edge.from}:${edge.line} imports '${edge.specifier}'`;

describe('layers of src/', () => {
  const edges = readImportGraph(SRC);

  it('reads the imports of every source file', () => {
    // A parser that found nothing would pass every check below.
    assert.ok(edges.length > 1000, `only ${edges.length} imports found`);
    assert.ok(edges.some((edge) => edge.from === 'cli/normal_mode.ts' && edge.to === 'service/assembly.ts'));
    assert.ok(edges.some((edge) => edge.typeOnly) && edges.some((edge) => edge.dynamic));
  });

  it('has no import that points up a layer', () => {
    const found = upwardImports(edges).map((v) => `${describeEdge(v.edge)}: ${v.reason}`);
    assert.deepEqual(found, []);
  });

  it('has no import cycle among files', () => {
    const cycles = importCycles(edges).map((cycle) => cycle.join(' -> '));
    assert.deepEqual(cycles, []);
  });

  it('finds an upward import added to a base layer, naming the file and import', () => {
    const added = importsOf(
      SRC,
      join(SRC, 'message', 'added.ts'),
      "import { runNormalMode } from '../cli/normal_mode.js';\n",
    );
    const found = upwardImports([...edges, ...added]).map((v) => `${describeEdge(v.edge)}: ${v.reason}`);
    assert.deepEqual(found, [
      "src/message/added.ts:1 imports '../cli/normal_mode.js': message/ must not import from cli/, a higher layer",
    ]);
  });

  it('finds an upward type-only import, and a directory that is in no layer', () => {
    const typeOnly = importsOf(
      SRC,
      join(SRC, 'engine', 'added.ts'),
      "import type { Service } from '../service/assembly.js';",
    );
    const unplaced = importsOf(
      SRC,
      join(SRC, 'newdir', 'added.ts'),
      "export * from '../message/message.js';",
    );
    assert.equal(typeOnly[0].typeOnly, true);
    assert.deepEqual(
      upwardImports([...typeOnly, ...unplaced]).map((v) => v.reason),
      ['engine/ must not import from service/, a higher layer', 'newdir/ is in no layer: add it to LAYERS'],
    );
  });

  it('refuses a component importing from http/ (shared HTTP code lives in listener/)', () => {
    const added = importsOf(
      SRC,
      join(SRC, 'components/outputs/websocket.ts'),
      "import '../../http/server.js';",
    );
    assert.equal(upwardImports(added).length, 1);
  });

  it('finds a cycle among static value imports and prints it in import order', () => {
    const edge = (from: string, to: string, extra: Partial<ImportEdge> = {}): ImportEdge => ({
      from,
      to,
      specifier: to,
      line: 1,
      typeOnly: false,
      dynamic: false,
      ...extra,
    });
    const cycle = [edge('a.ts', 'b.ts'), edge('b.ts', 'c.ts'), edge('c.ts', 'a.ts'), edge('c.ts', 'd.ts')];
    assert.deepEqual(importCycles([...edges, ...cycle]), [['a.ts', 'b.ts', 'c.ts', 'a.ts']]);
    // Erased or lazy imports cannot make modules load in a cycle.
    assert.deepEqual(importCycles([edge('a.ts', 'b.ts'), edge('b.ts', 'a.ts', { typeOnly: true })]), []);
    assert.deepEqual(importCycles([edge('a.ts', 'b.ts'), edge('b.ts', 'a.ts', { dynamic: true })]), []);
  });
});
