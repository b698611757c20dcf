// The package as a user gets it: `npm pack`, installed into a scratch project that has no access to
// this repository's sources. There a TypeScript app (type-checked against the shipped .d.ts) runs
// a StreamBuilder stream with a producer and a consumer function and a processor plugin, and the
// installed `nekton` CLI runs the same plugin from YAML with --plugin.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { tempDir } from '../helpers/cli.js';

const root = join(import.meta.dirname, '..', '..');

function run(command: string, args: string[], cwd: string, input = '') {
  const result = spawnSync(command, args, { cwd, input, encoding: 'utf8', timeout: 300_000 });
  assert.equal(result.status, 0, `${command} ${args.join(' ')}:\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

const PLUGIN = `import { field, registerProcessor } from 'nekton';

registerProcessor({
  name: 'scratch_upper',
  summary: 'Upper-cases each message and appends a suffix.',
  fields: [field.string('suffix', 'Appended.', { default: '' })],
  build: (config) => {
    const suffix: string = config.suffix;
    return { process: (message) => message.withContent(message.asString().toUpperCase() + suffix) };
  },
});
`;

const APP = `import { type Message, StreamBuilder } from 'nekton';
import './plugin.js';

const builder = new StreamBuilder().setYaml(
  'logger: { level: NONE }\\npipeline:\\n  processors:\\n    - scratch_upper: { suffix: "!" }\\n',
);
const send = builder.addProducerFunc();
const received: string[] = [];
builder.addConsumerFunc(async (message: Message) => {
  received.push(message.asString());
});
const stream = await builder.build();
const running = stream.run();
await send('hello', { from: 'app' });
await send('world');
send.end();
await running;
process.stdout.write(JSON.stringify(received));
`;

describe('npm pack, installed into a scratch project', () => {
  it('imports, type-checks, runs a StreamBuilder stream and a plugin through the installed CLI', () => {
    run(process.execPath, [join(root, 'scripts', 'build-if-stale.mjs')], root);
    const packed = tempDir('nekton-pack-');
    run('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', packed], root);
    const tarball = join(packed, readdirSync(packed).find((f) => f.endsWith('.tgz'))!);

    const scratch = tempDir('nekton-scratch-');
    writeFileSync(
      join(scratch, 'package.json'),
      JSON.stringify({ name: 'scratch', version: '1.0.0', private: true, type: 'module' }),
    );
    run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--silent', tarball], scratch);
    // Type definitions of Node itself, as a user's project has them (devDependency @types/node),
    // unless a dependency brought them already.
    const nodeTypes = join(scratch, 'node_modules', '@types', 'node');
    if (!existsSync(nodeTypes)) {
      mkdirSync(join(scratch, 'node_modules', '@types'), { recursive: true });
      symlinkSync(join(root, 'node_modules', '@types', 'node'), nodeTypes);
    }
    mkdirSync(join(scratch, 'src'));
    writeFileSync(join(scratch, 'src', 'plugin.ts'), PLUGIN);
    writeFileSync(join(scratch, 'src', 'app.ts'), APP);
    writeFileSync(
      join(scratch, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          types: ['node'],
          outDir: 'out',
          rootDir: 'src',
        },
        include: ['src'],
      }),
    );
    run(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', '.'], scratch);

    assert.equal(run(process.execPath, ['out/app.js'], scratch), '["HELLO!","WORLD!"]');

    writeFileSync(
      join(scratch, 'config.yaml'),
      'http: { enabled: false }\nlogger: { level: WARN }\npipeline:\n  processors:\n    - scratch_upper: { suffix: "?" }\n',
    );
    const cli = join(scratch, 'node_modules', '.bin', 'nekton');
    assert.equal(run(cli, ['--plugin', './out/plugin.js', '-c', 'config.yaml'], scratch, 'abc\n'), 'ABC?\n');
  });
});
