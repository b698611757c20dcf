// What goes wrong with beanstalkd and how nekton says so: lint names a bad field at its line, a
// job the server refuses fails the write with the server's reply, and a job held by a nekton that
// is killed goes back to the ready queue (at least once across a crash).
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { registry } from '../../../src/components/registry.js';
import { bloblangChecker } from '../../../src/config/bloblang_check.js';
import { formatApiLint } from '../../../src/config/lint.js';
import { lintServiceConfig } from '../../../src/config/lint_config.js';
import { schemaProvider } from '../../../src/config/schema.js';
import { parseYaml } from '../../../src/config/yaml_document.js';
import { Message } from '../../../src/message/message.js';
import { startNekton, tempDir } from '../../helpers/cli.js';
import { requireService, waitFor } from '../../helpers/kit.js';
import { buildOutput } from '../amqp/stream_yaml.js';
import { Admin, PrivateBeanstalkd } from './helpers.js';

const provider = schemaProvider(registry);
const lint = (yaml: string) =>
  lintServiceConfig(parseYaml(yaml), { provider, bloblang: bloblangChecker }).map(formatApiLint);

describe('beanstalkd failures', () => {
  it('lint names an address without a port, and a field the reference does not have, at their lines', () => {
    assert.deepEqual(lint('input:\n  beanstalkd:\n    address: localhost\noutput:\n  drop: {}\n'), [
      "(3,1) address: expected host:port (e.g. 127.0.0.1:11300), got 'localhost'",
    ]);
    assert.deepEqual(
      lint('input:\n  stdin: {}\noutput:\n  beanstalkd:\n    address: 127.0.0.1:11300\n    tube: jobs\n'),
      ['(6,1) field tube not recognised'],
    );
    assert.deepEqual(
      lint('input:\n  beanstalkd: {}\noutput:\n  drop: {}\n').length,
      1,
      'address is required',
    );
    assert.deepEqual(
      lint(
        'input:\n  beanstalkd:\n    address: "[::1]:11300"\noutput:\n  beanstalkd:\n    address: :11300\n',
      ),
      [],
    );
  });

  it("fails the write with the server's reply when it refuses the job (JOB_TOO_BIG)", async (t) => {
    if (!(await requireService(t, 'beanstalkd'))) return;
    const server = await PrivateBeanstalkd.start('-z', '16');
    const output = await buildOutput(
      `input:\n  stdin: {}\noutput:\n  beanstalkd:\n    address: ${server.address}\n`,
    );
    const admin = await Admin.open(server.address);
    try {
      await output.write([new Message('small')]);
      assert.equal(await admin.take(), 'small');
      await assert.rejects(output.write([new Message('x'.repeat(100))]), /JOB_TOO_BIG/);
      assert.equal(await admin.take(), null, 'nothing put');
      // The connection is still good after the refusal.
      await output.write([new Message('again')]);
      assert.equal(await admin.take(), 'again');
    } finally {
      admin.close();
      await output.close();
      await server.dispose();
    }
  });

  it('a job held by a nekton that is killed returns to the ready queue and is delivered again', async (t) => {
    if (!(await requireService(t, 'beanstalkd'))) return;
    const server = await PrivateBeanstalkd.start();
    const admin = await Admin.open(server.address);
    const dir = tempDir();
    const config = join(dir, 'held.yaml');
    // The message never reaches the output: the sleep holds it, so its job stays reserved.
    writeFileSync(
      config,
      `input:\n  beanstalkd:\n    address: ${server.address}\npipeline:\n  processors:\n    - sleep: { duration: 1h }\noutput:\n  drop: {}\n`,
    );
    const [id = ''] = await admin.put('held');
    const child = startNekton(['run', config]);
    try {
      await waitFor(async () => (await admin.state(id)) === 'reserved', {
        message: () => `nekton reserved the job\n${child.output()}`,
        timeoutMs: 20_000,
      });
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
      await waitFor(async () => (await admin.state(id)) === 'ready', { message: 'the job ready again' });
      assert.equal(await admin.take(), 'held');
    } finally {
      child.kill('SIGKILL');
      admin.close();
      await server.dispose();
    }
  });
});
