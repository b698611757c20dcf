// Bundles the CLI that tsc built (dist/cli/main.js) into dist/bundle/, which bin/nekton runs.
// Start-up was dominated by loading ~280 small modules (resolution, file reads, one compile each);
// a handful of files halves it. Packages stay external, resolved from node_modules at run time as
// before, and each lazily imported subcommand (streams, lint, docs, ...) becomes its own chunk,
// still loaded only when used. The input is tsc's output, so the bundle runs exactly the JS the
// tests cover, and its source map leads back to src/ through tsc's maps.
import { mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const outDir = join(root, 'dist', 'bundle');

const result = await build({
  absWorkingDir: root,
  entryPoints: { nekton: 'dist/cli/main.js' },
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  outdir: outDir,
  chunkNames: 'chunks/[name]-[hash]',
  sourcemap: 'linked',
  sourcesContent: false,
  write: false,
  logLevel: 'warning',
});

// Other processes may start bin/nekton while this runs (tests, a second build): every file is
// written under a temporary name and renamed into place, chunks before the entry that imports them.
const files = [...result.outputFiles].sort((a, b) => Number(isEntry(a.path)) - Number(isEntry(b.path)));
for (const file of files) {
  await mkdir(dirname(file.path), { recursive: true });
  const temporary = `${file.path}.${process.pid}.tmp`;
  await writeFile(temporary, file.contents);
  await rename(temporary, file.path);
}

// Chunk names carry a content hash: drop those of earlier builds so they do not pile up.
const written = new Set(files.map((f) => f.path));
for (const entry of await readdir(outDir, { recursive: true, withFileTypes: true })) {
  const path = join(entry.parentPath, entry.name);
  if (entry.isFile() && !written.has(path) && !entry.name.endsWith('.tmp')) await rm(path, { force: true });
}

function isEntry(path) {
  return relative(outDir, path).startsWith('nekton.');
}
