// biome-ignore-all lint/suspicious/noTemplateCurlyInString: config text with ${ENV} references, not templates
// The running CLI never shows a `--set` secret in `/debug/stack`, nor a URL password or `${VAR}`
// expansion in `/debug/config` (issue 17). Runs the built bin/nekton.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { it } from 'node:test';
import { startNekton, tempDir } from '../helpers/cli.js';
import { freePort, waitFor } from '../helpers/kit.js';

it('/debug/stack and /debug/config of a streams-mode process reveal no secret', async () => {
  const port = await freePort();
  const dir = tempDir();
  const obs = join(dir, 'obs.yaml');
  writeFileSync(
    obs,
    [
      'http:',
      `  address: 127.0.0.1:${port}`,
      '  debug_endpoints: true',
      'logger:',
      '  level: OFF',
      'output_resources:',
      '  - label: out',
      '    http_client:',
      '      url: http://svc:${NEKTON_DEBUG_TEST_PW}@127.0.0.1:9/x',
      '',
    ].join('\n'),
  );
  const child = startNekton(['streams', '-o', obs, '-s', 'logger.static_fields.token=set-secret-5531'], {
    NEKTON_DEBUG_TEST_PW: 'env-secret-8812',
  });
  try {
    const stack = await waitFor(
      async () => {
        const res = await fetch(`http://127.0.0.1:${port}/debug/stack`);
        return res.ok ? res.text() : '';
      },
      { message: '/debug/stack', timeoutMs: 20_000 },
    );
    assert.ok(stack.includes('commandLine'), 'the report shows the command line');
    assert.ok(!stack.includes('set-secret-5531'), 'a --set value leaked through /debug/stack');
    assert.ok(stack.includes('logger.static_fields.token=!!!SECRET_SCRUBBED!!!'));
    for (const path of ['/debug/config/json', '/debug/config/yaml']) {
      const text = await (await fetch(`http://127.0.0.1:${port}${path}`)).text();
      assert.ok(!text.includes('env-secret-8812') && !text.includes('set-secret-5531'), `${path}: ${text}`);
      assert.ok(text.includes('${NEKTON_DEBUG_TEST_PW}'), `${path} shows the reference as written: ${text}`);
    }
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }
});
