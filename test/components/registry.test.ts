// The one list of components (src/components/all.ts): every component file is in it, once, under
// its kind and name, and every registered spec is documented and tested.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import * as all from '../../src/components/all.js';
import { registry } from '../../src/components/registry.js';

const COMPONENTS_DIR = 'src/components';

function filesUnder(dir: string, suffix: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return filesUnder(path, suffix);
    return path.endsWith(suffix) ? [path] : [];
  });
}

/** Component files: those that declare a spec. */
const componentFiles = filesUnder(COMPONENTS_DIR, '.ts').filter((file) =>
  /^export const spec\b/m.test(readFileSync(file, 'utf8')),
);

describe('component registry', () => {
  it('lists every component file once, in all.ts', () => {
    const listed = readFileSync(join(COMPONENTS_DIR, 'all.ts'), 'utf8');
    const missing = componentFiles
      .map((file) => `./${relative(COMPONENTS_DIR, file).replace(/\.ts$/, '.js')}`)
      .filter((module) => !listed.includes(`from '${module}';`));
    assert.deepEqual(missing, [], 'component files not registered in src/components/all.ts');
  });

  it('registers each file’s own spec under <kind>_<name>, sorted', async () => {
    const names = Object.keys(all);
    assert.deepEqual(names, [...names].sort(), 'all.ts lines are sorted by kind, then name');
    for (const file of componentFiles) {
      const { spec } = (await import(pathToFileURL(file).href)) as { spec: { kind: string; name: string } };
      assert.equal(registry.get(spec.kind as never, spec.name), spec, `${file} is registered`);
      assert.equal(
        (all as Record<string, unknown>)[`${spec.kind}_${spec.name}`],
        spec,
        `${file} is exported as ${spec.kind}_${spec.name}`,
      );
    }
    assert.equal(registry.list().length, names.length);
  });

  it('documents every registered component: a summary and a description', () => {
    const undocumented = registry
      .list()
      .filter((spec) => !spec.summary?.trim() || !spec.description?.trim())
      .map((spec) => `${spec.kind} ${spec.name}`);
    assert.deepEqual(undocumented, []);
  });

  it('tests every registered component: a test imports it, names it as a config key, or is named after it', () => {
    const tests = filesUnder('test', '.test.ts').map((file) => ({ file, text: readFileSync(file, 'utf8') }));
    const moduleOf = new Map(
      [
        ...readFileSync(join(COMPONENTS_DIR, 'all.ts'), 'utf8').matchAll(
          /spec as (\w+) \} from '\.\/(.+)';/g,
        ),
      ].map((m) => [m[1], `components/${m[2]}`]),
    );
    const untested = registry
      .list()
      .filter((spec) => {
        const module = moduleOf.get(`${spec.kind}_${spec.name}`) ?? '';
        const asKey = new RegExp(`(^|[\\s{'"\`-])${spec.name}:`, 'm');
        return !tests.some(
          ({ file, text }) =>
            file.includes(spec.name) ||
            text.includes(`${module}'`) ||
            asKey.test(text) ||
            text.includes(`'${spec.name}'`),
        );
      })
      .map((spec) => `${spec.kind} ${spec.name}`);
    assert.deepEqual(untested, []);
  });
});
