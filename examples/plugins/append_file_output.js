// @ts-check
// An output plugin: appends each message as one line to a file. A write that fails rejects,
// so the engine nacks the message to its input (at-least-once).
import { appendFile } from 'node:fs/promises';
import { field, registerOutput } from 'nekton';

registerOutput({
  name: 'append_file',
  summary: 'Appends each message, and a newline, to a file.',
  fields: [field.string('path', 'The file to append to (created when missing).')],
  build: (config) => ({
    async write(messages) {
      await appendFile(config.path, messages.map((m) => `${m.asString()}\n`).join(''));
    },
  }),
});
