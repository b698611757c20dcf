// The `sftp` output: writes messages to files on an SFTP server, at a path interpolated per message.
import { defineComponent, field } from '../../config/spec.js';
import type { Output } from '../../engine/component.js';
import { connectionFields, lintConnection } from '../sftp/connection_fields.js';
import { SftpSession } from '../sftp/session.js';
import { SftpWriter } from '../sftp/writer.js';
import { outputCodecField, outputCodecProblems } from './codec.js';

export const spec = defineComponent({
  name: 'sftp',
  kind: 'output',
  status: 'stable',
  categories: ['Network'],
  summary: 'Writes files to an SFTP server.',
  description:
    "The path is interpolated per message, so one output can spread messages over many files; missing directories are created. With the default codec `all-bytes` each message replaces the whole file; `append`, `lines` and `delim:x` append to it (writing at the file's end as found when it was opened). Writes run one at a time, so appends to a file stay in order; a write acknowledged by the server acks the message. When the server goes away the output reconnects with backoff and writes the batch again, so an append may repeat its messages (at least once).",
  fields: [
    ...connectionFields(),
    field.interpolated('path', 'The file to save the messages to on the server.', {
      // biome-ignore lint/suspicious/noTemplateCurlyInString: Bloblang interpolation, not a JS template
      examples: ['/upload/${! @kafka_key }.json', '/logs/${! now().ts_format("2006-01-02") }.log'],
    }),
    outputCodecField('How the bytes of messages are written into the output data stream.', {
      default: 'all-bytes',
      options: ['all-bytes', 'append', 'delim:x', 'lines'],
      examples: ['lines', 'delim:\t', 'delim:foobar'],
    }),
    field.int('max_in_flight', 'The maximum number of messages to have in flight at a given time.', {
      default: 64,
    }),
  ],
  lint: (config) => [...lintConnection(config), ...outputCodecProblems(config.codec)],
  examples: [
    {
      title: 'One file per message, named by its id',
      config: `input:
  stdin: {}
output:
  sftp:
    address: sftp.example.com:22
    credentials:
      username: nekton
      password: \${SFTP_PASSWORD}
      host_public_key: ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGGyBO2mFw5eQshL1swC6q99PvEJTeICAnnSVdjCaDxI
    path: '/upload/\${! json("id") }.json'
`,
    },
  ],
  async build(config, ctx): Promise<Output> {
    const session = await SftpSession.resolve(config, 'sftp');
    return ctx.wrapWriter(new SftpWriter(session, config.path, config.codec), {
      maxInFlight: config.max_in_flight,
    });
  },
});
