// The source of a `javascript` processor's worker thread (see javascript_sandbox.ts): the
// `benthos` API, console and `require` written inside the program's isolated context, and the
// worker's side of the one bridge they call, which reads and changes the message being processed.

// Runs inside the context: builds `benthos` and `console` around the bridge, then forgets it.
const SETUP = `(function (bridge) {
  'use strict';
  const call = (op, a, b) => {
    let r;
    try {
      r = bridge(op, a, b);
    } catch (e) {
      throw 'the ' + op + ' call failed';
    }
    if (r.error !== undefined) throw String(r.error);
    return r.ok;
  };
  const defined = (args, n) => {
    for (let i = 0; i < Math.min(args.length, n); i++)
      if (args[i] === undefined) throw 'argument at position ' + i + ' is undefined';
  };
  const show = (v) => {
    if (typeof v === 'string') return v;
    if (typeof v === 'object' && v !== null) { try { return JSON.stringify(v); } catch (e) { return String(v); } }
    return String(v);
  };
  const api = {
    v0_msg_as_string() { return call('as_string'); },
    v0_msg_set_string(value) { defined(arguments, 1); call('set_string', String(value)); },
    v0_msg_as_structured() { return JSON.parse(call('as_structured')); },
    v0_msg_set_structured(value) {
      defined(arguments, 1);
      const json = JSON.stringify(value);
      call('set_structured', json === undefined ? 'null' : json);
    },
    v0_msg_exists_meta(name) { defined(arguments, 1); return call('exists_meta', String(name)); },
    v0_msg_get_meta(name) { defined(arguments, 1); return JSON.parse(call('get_meta', String(name))); },
    v0_msg_set_meta(name, value) {
      defined(arguments, 2);
      const json = JSON.stringify(value);
      call('set_meta', String(name), json === undefined ? 'null' : json);
    },
    v0_fetch() { throw 'v0_fetch is not supported by nekton: a synchronous HTTP request would stall the pipeline'; },
  };
  const log = (level) => function () { call('log', level, Array.prototype.map.call(arguments, show).join(' ')); };
  const console = { log: log('info'), info: log('info'), warn: log('warn'), error: log('error'), debug: log('debug') };
  for (const o of [api, console]) for (const k of Object.keys(o)) Object.freeze(o[k]);
  Object.defineProperty(globalThis, 'benthos', { value: Object.freeze(api), enumerable: true });
  Object.defineProperty(globalThis, 'console', { value: Object.freeze(console), enumerable: true });

  // CommonJS modules from .js and .json files (as goja_nodejs' require reads them), run in this
  // same context: the host only finds and reads the file and compiles it here.
  const cache = new Map();
  const dirOf = (f) => { const i = f.lastIndexOf('/'); return i <= 0 ? (i === 0 ? '/' : '.') : f.slice(0, i); };
  const requireFrom = (dir) => function require(id) {
    if (arguments.length < 1 || id === undefined) throw 'argument at position 0 is undefined';
    id = String(id);
    if (id === 'console') return console;
    const filename = call('resolve', id, dir);
    if (cache.has(filename)) return cache.get(filename).exports;
    const module = { exports: {}, id: filename, filename, loaded: false };
    cache.set(filename, module);
    try {
      if (filename.endsWith('.json')) module.exports = JSON.parse(call('read_json', filename));
      else call('compile', filename)(module.exports, requireFrom(dirOf(filename)), module, filename, dirOf(filename));
    } catch (e) {
      cache.delete(filename);
      throw e;
    }
    module.loaded = true;
    return module.exports;
  };
  const main = requireFrom(dirOf(call('main_filename')));
  Object.freeze(main);
  Object.defineProperty(globalThis, 'require', { value: main, enumerable: true });
})`;

// The worker (CommonJS, evaluated from this text so it needs no file of its own in the bundle).
export const WORKER_SOURCE = `'use strict';
const { parentPort, workerData } = require('node:worker_threads');
const vm = require('node:vm');
let current = null;

const MODULE_OPS = new Set(['main_filename', 'resolve', 'read_json', 'compile']);

function bridge(op, a, b) {
  if (MODULE_OPS.has(op)) return moduleOp(op, a, b);
  const c = current;
  if (c === null) return { error: 'no message is being processed' };
  const text = () => (c.content === null ? c.text : c.content.value);
  switch (op) {
    case 'as_string':
      return { ok: text() };
    case 'set_string':
      c.content = { kind: 'string', value: String(a) };
      return { ok: null };
    case 'as_structured': {
      const t = c.content !== null && c.content.kind === 'json' ? c.content.value : text();
      try { JSON.parse(t); } catch (e) { return { error: String(e && e.message) }; }
      return { ok: t };
    }
    case 'set_structured':
      c.content = { kind: 'json', value: String(a) };
      return { ok: null };
    case 'exists_meta':
      return { ok: c.meta.has(String(a)) };
    case 'get_meta':
      return c.meta.has(String(a)) ? { ok: c.meta.get(String(a)) } : { error: 'key not found' };
    case 'set_meta':
      c.meta.set(String(a), String(b));
      c.metaSets.push([String(a), String(b)]);
      return { ok: null };
    case 'log':
      parentPort.postMessage({ type: 'log', level: String(a), text: String(b) });
      return { ok: null };
    default:
      return { error: 'unknown operation ' + op };
  }
}

// Module loading, as goja_nodejs resolves it: a path relative to the requiring module's folder,
// else node_modules folders up from it, else the global folders; a file, or a folder with a
// package.json main or an index file; only .js and .json files.
const fs = require('node:fs');
const path = require('node:path');
const isFile = (p) => { try { return fs.statSync(p).isFile(); } catch (e) { return false; } };
const isDir = (p) => { try { return fs.statSync(p).isDirectory(); } catch (e) { return false; } };
const loadable = (p) => (p.endsWith('.js') || p.endsWith('.json')) && isFile(p);
function asFile(p) {
  for (const c of [p, p + '.js', p + '.json']) if (loadable(c)) return c;
  return null;
}
function asDirectory(p) {
  if (!isDir(p)) return null;
  const pkg = path.join(p, 'package.json');
  if (isFile(pkg)) {
    try {
      const main = JSON.parse(fs.readFileSync(pkg, 'utf8')).main;
      if (typeof main === 'string') {
        const m = asFile(path.join(p, main)) || asDirectory(path.join(p, main));
        if (m) return m;
      }
    } catch (e) {}
  }
  return asFile(path.join(p, 'index'));
}
const asFileOrDirectory = (p) => asFile(p) || asDirectory(p);
function resolveModule(id, dir) {
  if (id.startsWith('./') || id.startsWith('../') || id.startsWith('/')) {
    return asFileOrDirectory(path.resolve(dir, id));
  }
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    if (path.basename(d) !== 'node_modules') {
      const found = asFileOrDirectory(path.join(d, 'node_modules', id));
      if (found) return found;
    }
    if (path.dirname(d) === d) break;
  }
  for (const folder of workerData.globalFolders) {
    const found = asFileOrDirectory(path.resolve(folder, id));
    if (found) return found;
  }
  return null;
}

function moduleOp(op, a, b) {
  switch (op) {
    case 'main_filename':
      return { ok: workerData.filename };
    case 'resolve': {
      const found = resolveModule(String(a), String(b));
      return found ? { ok: found } : { error: 'Invalid module' };
    }
    case 'read_json':
      return { ok: fs.readFileSync(String(a), 'utf8') };
    case 'compile': {
      const source = fs.readFileSync(String(a), 'utf8').replace(/^#!.*/, '');
      const wrapped = '(function (exports, require, module, __filename, __dirname) {' + source + '\\n})';
      return { ok: vm.runInContext(wrapped, context, { filename: String(a) }) };
    }
    default:
      return { error: 'unknown operation ' + op };
  }
}

// A null-prototype global: \`this.constructor\` inside leads to the context's own Object.
const context = vm.createContext(Object.create(null), {
  name: 'javascript processor',
  codeGeneration: { strings: true, wasm: false },
});
const toInside = vm.runInContext(
  '(function (r) { return r.error !== undefined ? { error: String(r.error) } : { ok: r.ok }; })',
  context,
);
vm.runInContext(${JSON.stringify(SETUP)}, context)(function (op, a, b) {
  let r;
  try { r = bridge(op, a, b); } catch (e) { r = { error: String(e && e.message) }; }
  return toInside(r);
});
const describe = vm.runInContext(\`(function (e) {
  try {
    if (typeof e === 'object' && e !== null) {
      const message = String(e.message === undefined ? '' : e.message);
      const name = String(e.name === undefined ? 'Error' : e.name);
      return message === '' ? name : name + ': ' + message;
    }
    return String(e);
  } catch (_) {
    return 'the program threw a value that cannot be shown';
  }
})\`, context);
const script = new vm.Script(workerData.code, { filename: workerData.filename });

// Promise jobs the program started finish before its message is done: a macrotask runs only once
// they are all through (and never, if they go on forever: the host then stops the worker).
const settled = () => new Promise((resolve) => setImmediate(resolve));
const failures = [];
process.on('unhandledRejection', (reason) => failures.push(reason));
process.on('uncaughtException', (err) => failures.push(err));

parentPort.postMessage({ type: 'ready' });

parentPort.on('message', async (messages) => {
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    current = { text: m.text, content: null, meta: new Map(m.meta), metaSets: [] };
    try {
      script.runInContext(context, { displayErrors: false });
      await settled();
      if (failures.length > 0) throw failures.splice(0)[0];
    } catch (err) {
      current = null;
      parentPort.postMessage({ type: 'error', error: String(describe(err)) });
      return;
    }
    const c = current;
    current = null;
    parentPort.postMessage({ type: 'result', content: c.content, meta: c.metaSets });
  }
  parentPort.postMessage({ type: 'done' });
});
`;
