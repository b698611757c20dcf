// `npm install` on the Node versions nekton claims: no dependency may ask for a newer Node
// (npm's EBADENGINE warning), and every install script is approved or denied in allowScripts
// (npm 11 warns about the others).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import semver from 'semver';

const root = join(import.meta.dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
const locked = Object.entries(lock.packages as Record<string, LockedPackage>).filter(([path]) => path !== '');

interface LockedPackage {
  engines?: { node?: string };
  hasInstallScript?: boolean;
  optional?: boolean;
}

const packageName = (path: string) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);

describe('install on the Node versions claimed', () => {
  it('every locked package supports every Node version package.json claims', () => {
    const claimed: string = pkg.engines.node;
    assert.ok(semver.validRange(claimed), `engines.node ${claimed}`);
    const refusing = locked
      .filter(([, p]) => p.engines?.node && !p.optional)
      .filter(([, p]) => !semver.subset(claimed, p.engines!.node!, { includePrerelease: false }))
      .map(([path, p]) => `${packageName(path)} wants node ${p.engines!.node}`);
    assert.deepEqual(refusing, [], `not every Node ${claimed} can install them`);
  });

  it('the Node versions claimed include the one running the tests', () => {
    assert.ok(semver.satisfies(process.versions.node, pkg.engines.node), process.versions.node);
  });

  it('every package with an install script is approved or denied in allowScripts', () => {
    const decided = new Set(Object.keys(pkg.allowScripts ?? {}).map((key) => key.replace(/(.)@.*$/, '$1')));
    const undecided = locked
      .filter(([, p]) => p.hasInstallScript && !p.optional)
      .map(([path]) => packageName(path))
      .filter((name) => !decided.has(name));
    assert.deepEqual(undecided, []);
  });

  it('the README claims the same Node versions as package.json', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const minimum = semver.minVersion(pkg.engines.node)!.version;
    assert.match(readme, new RegExp(`Node\\.js >= ${minimum.replaceAll('.', '\\.')}\\b`));
  });
});
