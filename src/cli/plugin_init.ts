// `nekton plugin init NAME`: a plugin package to start from: one processor registered at import,
// a test that runs it in a stream, and a README saying how to load it.
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { buildInfo } from '../http/version.js';

export async function initPlugin(name: string): Promise<number> {
  const dir = resolve(name);
  const packageName = basename(dir);
  if (!/^[a-z0-9][a-z0-9._-]*$/.test(packageName)) {
    process.stderr.write(`nekton: ${packageName} is not a valid package name (lower case, digits, - . _)\n`);
    return 1;
  }
  if (existsSync(dir)) {
    process.stderr.write(`nekton: ${dir} already exists\n`);
    return 1;
  }
  const processor = packageName.replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '');
  await mkdir(join(dir, 'test'), { recursive: true });
  for (const [file, text] of Object.entries(pluginFiles(packageName, processor))) {
    await writeFile(join(dir, file), text);
  }
  process.stdout.write(
    `created ${dir}: a processor ${processor} in index.js and its test (npm install, then npm test)\n`,
  );
  return 0;
}

export function pluginFiles(packageName: string, processor: string): Record<string, string> {
  const version = buildInfo().version;
  return {
    'package.json': `${JSON.stringify(
      {
        name: packageName,
        version: '0.1.0',
        type: 'module',
        exports: './index.js',
        scripts: { test: 'node --test test/' },
        peerDependencies: { nekton: `^${version}` },
        devDependencies: { nekton: `^${version}` },
      },
      null,
      2,
    )}\n`,
    'index.js': `// @ts-check
// A nekton plugin: importing this module registers the processor \`${processor}\`.
// Load it with \`nekton --plugin ${packageName} -c config.yaml\` or a config's \`plugins: [${packageName}]\`.
import { field, registerProcessor } from 'nekton';

registerProcessor({
  name: '${processor}',
  summary: 'Appends a suffix to each message.',
  fields: [field.string('suffix', 'Text added to the end of each message.', { default: '!' })],
  build: (config) => ({
    process: (message) => message.withContent(message.asString() + config.suffix),
  }),
});
`,
    'test/plugin.test.js': `import assert from 'node:assert/strict';
import { test } from 'node:test';
import { StreamBuilder } from 'nekton';
import '../index.js';

test('${processor} appends its suffix', async () => {
  const builder = new StreamBuilder().setYaml(
    'logger: { level: WARN }\\npipeline:\\n  processors:\\n    - ${processor}: { suffix: "?" }\\n',
  );
  const send = builder.addProducerFunc();
  const received = [];
  builder.addConsumerFunc((message) => {
    received.push(message.asString());
  });
  const stream = await builder.build();
  const running = stream.run();
  await send('hello');
  send.end();
  await running;
  assert.deepEqual(received, ['hello?']);
});
`,
    'README.md': `# ${packageName}

A [nekton](https://www.npmjs.com/package/nekton) plugin: the processor \`${processor}\`.

    npm install
    npm test
    nekton --plugin ./index.js -c config.yaml

or name it in the config: \`plugins: [./index.js]\` (relative to the config file).
`,
  };
}
