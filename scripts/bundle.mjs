// Bundles the CLI that tsc built (dist/cli/main.js) into one CommonJS file, dist/bundle/nekton.cjs,
// and records V8's code cache for it (dist/bundle/nekton.cjs.cache), which bin/nekton loads.
// Start-up was dominated by loading modules: ~280 small files (resolution, reads, one compile
// each), then one ES module bundle that V8 still had to parse on every start. Node 20 has no code
// cache for ES modules, but `vm.Script` takes one, so the bundle is CommonJS. With the cache a
// trivial config starts in ~0.09 s of CPU instead of ~0.15 s.
// The input is tsc's output, so the bundle runs exactly the JS the tests cover, and its source map
// leads back to src/ through tsc's maps. Lazily imported subcommands stay lazy: esbuild wraps each
// in a function run on first use.
import { spawnSync } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const outDir = join(root, 'dist', 'bundle');
const bundleFile = join(outDir, 'nekton.cjs');

// Pure-JS packages every start needs go inside the bundle (and so inside the code cache): yaml
// alone is ~80 CommonJS files. Connector clients stay external, imported when a component
// connects, like any other package the user installed.
const bundled = new Set(['yaml', 'commander', 'tinyglobby', 'pino', 'croner']);
const { dependencies } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const external = Object.keys(dependencies)
  .filter((name) => !bundled.has(name))
  .flatMap((name) => [name, `${name}/*`]);

const result = await build({
  absWorkingDir: root,
  entryPoints: ['dist/cli/main.js'],
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  external,
  outfile: bundleFile,
  // The modules were ES modules: `import.meta.url` becomes the bundle's own URL.
  define: { 'import.meta.url': '__nektonBundleUrl' },
  banner: { js: "const __nektonBundleUrl = require('node:url').pathToFileURL(__filename).href;" },
  plugins: [deferRequires(), fdirWithoutPicomatch()],
  sourcemap: 'linked',
  sourcesContent: false,
  write: false,
  logLevel: 'warning',
});

// Other processes may start bin/nekton while this runs (tests, a second build): every file is
// written under a temporary name and renamed into place. The old cache goes first, so no process
// pairs it with the new bundle (bin/nekton also checks the bundle's size and time).
mkdirSync(outDir, { recursive: true });
rmSync(`${bundleFile}.cache`, { force: true });
for (const file of result.outputFiles)
  writeAtomically(
    file.path,
    file.path === bundleFile ? asciiOnly(importThroughLoader(file.text)) : file.contents,
  );

// Files of earlier builds (the ES module bundle and its chunks) would only confuse.
const keep = new Set([bundleFile, `${bundleFile}.map`]);
for (const entry of readdirSync(outDir, { withFileTypes: true })) {
  const path = join(outDir, entry.name);
  if (!keep.has(path) && !entry.name.endsWith('.tmp')) rmSync(path, { recursive: true, force: true });
}

recordCodeCache();

// Modules that bundled packages load at start for features nekton does not use: commander's
// child_process (for executable subcommands), pino's thread-stream (for transports) and sonic-boom's
// assert (for options nekton does not pass). Each is replaced by a stand-in that loads it on first
// use: ~7 ms of a start.
function deferRequires() {
  const deferred = { 'node:child_process': /commander/, 'thread-stream': /pino/, assert: /sonic-boom/ };
  return {
    name: 'defer-requires',
    setup(plugin) {
      const filter = new RegExp(`^(${Object.keys(deferred).join('|')})$`);
      plugin.onResolve({ filter }, (args) =>
        args.namespace !== 'deferred' && deferred[args.path].test(args.importer)
          ? { path: args.path, namespace: 'deferred' }
          : undefined,
      );
      plugin.onLoad({ filter: /.*/, namespace: 'deferred' }, (args) => ({
        resolveDir: root,
        contents: `let loaded;
const load = () => (loaded ??= require(${JSON.stringify(args.path)}));
module.exports = new Proxy(function deferred() {}, {
  get: (_, key) => load()[key],
  apply: (_, self, args) => Reflect.apply(load(), self, args),
  construct: (_, args) => Reflect.construct(load(), args),
});`,
      }));
    },
  };
}

// fdir (tinyglobby's directory walker) requires picomatch from node_modules when it loads, for a
// glob() that tinyglobby never calls (it brings its own matcher): ~13 ms of every start compiling
// picomatch from source. The bundled fdir requires it when glob() is first asked for instead. The
// build fails if fdir's text changed, rather than quietly keep the cost.
function fdirWithoutPicomatch() {
  const eager = 'try {\n\t__require.resolve("picomatch");\n\tpm = __require("picomatch");\n} catch {}';
  const use = 'const globFn = this.globFunction || pm;';
  return {
    name: 'fdir-without-picomatch',
    setup(plugin) {
      plugin.onLoad({ filter: /[\\/]node_modules[\\/]fdir[\\/]dist[\\/]index\.mjs$/ }, (args) => {
        const text = readFileSync(args.path, 'utf8');
        if (!text.includes(eager) || !text.includes(use))
          throw new Error(`${args.path} changed: scripts/bundle.mjs cannot defer its picomatch require`);
        const lazy =
          'const globFn = this.globFunction || (pm ??= (() => { try { return __require("picomatch"); } catch { return null; } })());';
        return { contents: text.replace(eager, '').replace(use, lazy), loader: 'js' };
      });
    },
  };
}

// Node 20 loses a script's dynamic-import callback when V8 takes the script from a code cache ("A
// dynamic import callback was not specified"), so the bundle imports packages (connector clients,
// loaded when a component connects) through a function bin/nekton passes in, which resolves them
// from the same node_modules.
function importThroughLoader(text) {
  const rewritten = text.replace(/\bimport\((["'])([^"']+)\1\)/g, (_, quote, name) => {
    const pkg = name
      .split('/')
      .slice(0, name.startsWith('@') ? 2 : 1)
      .join('/');
    if (!external.includes(pkg)) throw new Error(`the bundle imports ${name}, not an external package`);
    return `__nektonImport(${quote}${name}${quote})`;
  });
  // Plugin modules (src/plugins/load_plugins.ts) are imported by URL through the same loader.
  const withPlugins = rewritten.replace(/\bimport\(pluginModuleUrl\)/g, '__nektonImport(pluginModuleUrl)');
  const left = /\bimport\(/.exec(withPlugins);
  if (left)
    throw new Error(
      `the bundle has an import() bin/nekton cannot serve: ${withPlugins.slice(left.index, left.index + 80)}`,
    );
  return withPlugins;
}

// bin/nekton reads the bundle as latin1, which V8 takes as is (UTF-8 had to be decoded: ~20M
// instructions a start). esbuild escapes non-ASCII characters in strings, templates, regular
// expressions and names; what is left is in comments (em dashes, arrows), escaped here to match.
function asciiOnly(text) {
  return text.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function writeAtomically(path, contents) {
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, contents);
  renameSync(temporary, path);
}

// Runs a small stream through bin/nekton, which writes the code cache when it exits: the cache
// then holds the compiled code of everything a start runs (config loading, linting, building and
// running a stream), not just the bundle's top level. It is made with bin/nekton's own Node flags,
// as V8 refuses a cache made under other flags.
function recordCodeCache() {
  const work = mkdtempSync(join(tmpdir(), 'nekton-cache-'));
  try {
    const config = join(work, 'warm-up.yaml');
    writeFileSync(
      config,
      [
        'http: { enabled: false }',
        'logger: { level: WARN }',
        'input:',
        '  generate: { count: 3, interval: "", mapping: \'root = {"id": counter(), "at": now()}\' }',
        'pipeline:',
        '  processors:',
        '    - mapping: \'root = this.merge({"n": this.id * 2}).without("at")\'',
        'output:',
        '  drop: {}',
        '',
      ].join('\n'),
    );
    const run = spawnSync(join(root, 'bin', 'nekton'), ['-c', config], {
      env: { ...process.env, NEKTON_WRITE_CODE_CACHE: '1' },
      encoding: 'utf8',
    });
    if (run.status !== 0) throw new Error(`the warm-up run failed (${run.status}): ${run.stderr}`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
