// The `tar` scanner: one message per entry of a tar archive, read as a stream (an entry is held
// in memory, the archive is not), through modern-tar's decoder.
import { defineComponent } from '../../config/spec.js';
import { Message } from '../../message/message.js';
import { asBuffer, type ByteSource, type Scanner } from './scanner.js';

type ModernTar = typeof import('modern-tar');
let modernTar: ModernTar | undefined;

/** The stream's bytes; `seen.bytes` counts them. */
async function* bytes(source: ByteSource, seen: { bytes: number }): AsyncGenerator<Uint8Array> {
  for await (const chunk of source) {
    const buf = asBuffer(chunk);
    seen.bytes += buf.length;
    yield buf;
  }
}

async function readBody(body: ReadableStream<Uint8Array>): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  for await (const part of body) parts.push(part);
  return Buffer.concat(parts);
}

export const readTarEntries: Scanner = async function* readTar(source: ByteSource) {
  modernTar ??= await import('modern-tar');
  const decoder = modernTar.createTarDecoder({ strict: true });
  const seen = { bytes: 0 };
  const entries = ReadableStream.from(bytes(source, seen)).pipeThrough(decoder);
  try {
    for await (const entry of entries) {
      const msg = new Message(await readBody(entry.body));
      msg.setMeta('tar_name', entry.header.name);
      yield [msg];
    }
  } catch (err) {
    // An empty stream is an empty archive to the reference (its reader ends at once).
    if (seen.bytes === 0) return;
    throw new Error(`reading tar archive: ${(err as Error).message}`);
  }
};

export const spec = defineComponent({
  name: 'tar',
  kind: 'scanner',
  status: 'stable',
  summary: 'Consume a tar archive file by file.',
  description: `Each entry of the archive (directories too, with empty content) becomes a message, in archive order. The archive is read as a stream; each entry is held in memory whole.

### Metadata

This scanner adds the following metadata to each message:

- \`tar_name\``,
  fields: [] as const,
  examples: [
    {
      title: 'Each file of a tar archive as a message',
      config: `input:
  file:
    paths: [ ./archives/*.tar ]
    scanner:
      tar: {}
output:
  stdout: {}
`,
    },
  ],
  build: () => readTarEntries,
});
