// The subprocess processor: one long-running program answering each message, with the three
// codecs, stderr answers, restarts and its bounds. Uses sed -u, sh and cat.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Processor } from '../../../src/engine/component.js';
import { Message } from '../../../src/message/message.js';
import { waitFor } from '../../helpers/kit.js';
import { batchOf, processor, run, texts } from '../bloblang_components/build.js';

async function withProcessor(raw: Record<string, unknown>, fn: (p: Processor) => Promise<void>) {
  const p = await processor({ subprocess: raw });
  try {
    await fn(p);
  } finally {
    await p.close();
  }
}

const ANSWER_OR_COMPLAIN =
  'while read -r l; do if [ "$l" = bad ]; then echo "oops $l" >&2; else echo "ok $l"; fi; done';

describe('subprocess processor', () => {
  it('sends each message and replaces it with the answer, keeping metadata', async () => {
    await withProcessor({ name: 'sed', args: ['-u', 's/^/> /'] }, async (p) => {
      const [out] = await run(p, [new Message('one', new Map([['k', 'v']])), new Message('two')]);
      assert.deepEqual(
        out!.map((m) => m.text()),
        ['> one', '> two'],
      );
      assert.equal(out![0]!.getMeta('k'), 'v');
    });
  });

  it('sends a message of several lines line by line and joins the answers', async () => {
    await withProcessor({ name: 'sed', args: ['-u', 's/^/> /'] }, async (p) => {
      assert.deepEqual(texts(await run(p, batchOf('a\nb\n'))), [['> a\n> b\n']]);
    });
  });

  it('flags a message answered on stderr, leaves it unchanged, and goes on', async () => {
    await withProcessor({ name: 'sh', args: ['-c', ANSWER_OR_COMPLAIN] }, async (p) => {
      const [out] = await run(p, batchOf('good', 'bad', 'fine'));
      assert.equal(out![0]!.text(), 'ok good');
      assert.equal(out![1]!.text(), 'bad');
      assert.equal(out![1]!.error!.message, 'oops bad');
      assert.equal(out![2]!.text(), 'ok fine');
      assert.equal(out![2]!.error, null);
    });
  });

  it('frames binary messages with netstring and length_prefixed_uint32_be', async () => {
    for (const codec of ['netstring', 'length_prefixed_uint32_be']) {
      await withProcessor({ name: 'cat', codec_send: codec, codec_recv: codec }, async (p) => {
        assert.deepEqual(texts(await run(p, batchOf('with\nnewline,', ''))), [['with\nnewline,', '']]);
      });
    }
  });

  it('restarts a program that exits, failing only the message it left unanswered', async () => {
    await withProcessor({ name: 'sh', args: ['-c', 'read -r l; echo "answered $l"'] }, async (p) => {
      assert.deepEqual(texts(await run(p, batchOf('first'))), [['answered first']]);
      const later = await waitFor(async () => {
        const [[m]] = await run(p, batchOf('second'));
        return m!.error === null ? m : null;
      });
      assert.equal(later.text(), 'answered second');
    });
  });

  it('fails an answer longer than max_buffer and recovers with a new process', async () => {
    await withProcessor({ name: 'sed', args: ['-u', 's/^/> /'], max_buffer: 16 }, async (p) => {
      const [[long]] = await run(p, batchOf('x'.repeat(40)));
      assert.equal(long!.error!.message, 'type was closed');
      const ok = await waitFor(async () => {
        const [[m]] = await run(p, batchOf('short'));
        return m!.error === null ? m : null;
      });
      assert.equal(ok.text(), '> short');
    });
  });

  it('does not build when the program cannot be started', async () => {
    await assert.rejects(
      processor({ subprocess: { name: 'no-such-program-nekton' } }),
      /exec: "no-such-program-nekton": executable file not found/,
    );
  });
});
