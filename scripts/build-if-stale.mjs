// Runs `npm run build` only when dist/ is older than what it is built from. `npm install` builds
// (the `prepare` script), so `npm start` and `npm test` right after it do not build a second time
// (~7 s of a first start); after an edit to src/ they build as before.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const built = [join(root, 'dist', 'bundle', 'nekton.cjs'), join(root, 'dist', 'bundle', 'nekton.cjs.cache')];
const sources = ['src', 'scripts/bundle.mjs', 'package.json', 'tsconfig.json', 'tsconfig.build.json'];

/** The newest modification time under `path`; a directory counts too (a file added or removed). */
function newest(path) {
  let stat;
  try {
    stat = statSync(path);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs;
  for (const entry of readdirSync(path)) latest = Math.max(latest, newest(join(path, entry)));
  return latest;
}

function builtAt() {
  try {
    return Math.min(...built.map((file) => statSync(file).mtimeMs));
  } catch {
    return 0;
  }
}

const sourcesAt = Math.max(...sources.map((path) => newest(join(root, path))));
if (builtAt() > sourcesAt) {
  console.error('nekton: dist/ is up to date, not building');
} else {
  const result = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  process.exit(result.status ?? 1);
}
