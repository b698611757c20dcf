// Node-RED 4.1.x for the W3 baseline: installed by the bench into bench/.node-red on first run (a
// dev-only dependency, never in package.json; 5.x needs Node 22), started from a generated flows file
// with the editor and admin API disabled.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { mapDocument } from './baselines/doc_mapping.mjs';
import { type Background, ROOT, startBackground } from './processes.js';

const PREFIX = join(ROOT, 'bench', '.node-red');
const RED_JS = join(PREFIX, 'node_modules', 'node-red', 'red.js');

let installing: Promise<void> | null = null;

/** Installs node-red@~4.1 once; rejects with the reason when npm cannot. */
export function ensureNodeRed(): Promise<void> {
  if (existsSync(RED_JS)) return Promise.resolve();
  installing ??= new Promise<void>((resolve, reject) => {
    mkdirSync(PREFIX, { recursive: true });
    process.stderr.write('  installing node-red@~4.1 into bench/.node-red (first run only)\n');
    let output = '';
    const npm = spawn('npm', ['install', '--prefix', PREFIX, '--no-audit', '--no-fund', 'node-red@~4.1'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    npm.stdout.on('data', (d) => (output += d));
    npm.stderr.on('data', (d) => (output += d));
    npm.on('error', (err) => reject(new Error(`npm install node-red failed: ${err.message}`)));
    npm.on('exit', (code) => {
      if (code === 0 && existsSync(RED_JS)) resolve();
      else
        reject(
          new Error(`npm install node-red exited ${code}: ${output.trim().split('\n').slice(-2).join(' ')}`),
        );
    });
  });
  return installing;
}

/** `http in (POST path) -> function (the same ten assignments) -> http response`. */
function flows(path: string): unknown[] {
  const tab = 'bench-tab';
  const func = `${mapDocument.toString()}\nmapDocument(msg.payload);\nmsg.payload = '';\nreturn msg;`;
  return [
    { id: tab, type: 'tab', label: 'bench' },
    { id: 'in', type: 'http in', z: tab, url: path, method: 'post', upload: false, wires: [['fn']] },
    { id: 'fn', type: 'function', z: tab, func, outputs: 1, wires: [['out']] },
    { id: 'out', type: 'http response', z: tab, statusCode: '200', headers: {}, wires: [] },
  ];
}

export function startNodeRed(workDir: string, port: number, path: string): Background {
  const userDir = join(workDir, 'node-red-user');
  mkdirSync(userDir, { recursive: true });
  const flowFile = join(userDir, 'flows.json');
  writeFileSync(flowFile, JSON.stringify(flows(path)));
  return startBackground(
    process.execPath,
    [
      RED_JS,
      '--settings',
      join(ROOT, 'bench', 'baselines', 'node_red', 'settings.cjs'),
      '--userDir',
      userDir,
    ],
    { NODE_RED_PORT: String(port), NODE_RED_FLOWS: flowFile, NODE_RED_USER_DIR: userDir },
  );
}
