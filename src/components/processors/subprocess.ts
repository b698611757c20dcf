// `subprocess` processor: keeps one program running and sends it each message on stdin, taking
// its answer from stdout (or failing the message with what it wrote to stderr).
import { defineComponent, field } from '../../config/spec.js';
import type { Processor } from '../../engine/component.js';
import { ConfigError, errorMessage } from '../../engine/errors.js';
import { perMessage, processorErrorLog } from '../../engine/processor_helpers.js';
import type { Message } from '../../message/message.js';
import type { FrameCodec } from '../subprocess/frames.js';
import { LiveSubprocess } from '../subprocess/live_process.js';

const CODECS = ['lines', 'length_prefixed_uint32_be', 'netstring'] as const;
const NEWLINE = Buffer.from('\n');
const COMMA = Buffer.from(',');

async function exchange(proc: LiveSubprocess, codec: FrameCodec, content: Buffer): Promise<Buffer> {
  if (codec === 'length_prefixed_uint32_be') {
    const prefix = Buffer.alloc(4);
    prefix.writeUInt32BE(content.length);
    return proc.send(prefix, content, null);
  }
  if (codec === 'netstring') return proc.send(Buffer.from(`${content.length}:`), content, COMMA);
  // lines: each line of the message is one exchange; the answers are joined back with newlines.
  const lines: Buffer[] = [];
  let start = 0;
  for (;;) {
    const nl = content.indexOf(10, start);
    if (nl < 0) break;
    lines.push(content.subarray(start, nl));
    start = nl + 1;
  }
  lines.push(content.subarray(start));
  const results: Buffer[] = [];
  for (let j = 0; j < lines.length; j++) {
    const line = lines[j]!;
    if (line.length === 0 && lines.length > 1 && j === lines.length - 1) {
      results.push(Buffer.alloc(0));
      continue;
    }
    results.push(await proc.send(null, line, NEWLINE));
  }
  return Buffer.concat(results.flatMap((r, i) => (i === 0 ? [r] : [NEWLINE, r])));
}

function contentOf(msg: Message): Buffer {
  const bytes = msg.bytes();
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

export const spec = defineComponent({
  name: 'subprocess',
  kind: 'processor',
  status: 'stable',
  categories: ['Integration'],
  summary:
    'Executes a command as a subprocess and, for each message, will pipe its contents to the stdin stream of the process followed by a newline.',
  description: `This processor keeps the subprocess alive and requires very specific behavior from the command executed. If you wish to simply execute a command for each message take a look at the \`command\` processor instead. The command is run directly with its arguments (never through a shell).

The subprocess must then either return a line over stdout or stderr. If a response is returned over stdout then its contents will replace the message. If a response is instead returned from stderr it will be logged and the message will continue unchanged and will be marked as failed (the error gathers what stderr prints within a second of its first line).

Rather than separating data by a newline it's possible to specify alternative \`codec_send\` and \`codec_recv\` values, which allow binary messages to be encoded for logical separation.

The execution environment of the subprocess is the same as the nekton instance, including environment variables and the current working directory.

The field \`max_buffer\` defines the maximum response size able to be read from the subprocess. This value should be set significantly above the real expected maximum response size: a longer response is logged as an error and the subprocess is restarted.

## Subprocess requirements

It is required that subprocesses flush their stdout and stderr pipes for each line. nekton will attempt to keep the process alive for as long as the pipeline is running. If the process exits early it will be restarted, and the message being processed fails.

## Messages containing line breaks

If a message contains line breaks each line of the message is piped to the subprocess and flushed, and a response is expected from the subprocess before another line is fed in.`,
  fields: [
    field.string('name', 'The command to execute as a subprocess.', { examples: ['cat', 'sed', 'awk'] }),
    field.array(field.string('args', 'A list of arguments to provide the command.', { default: [] })),
    field.int('max_buffer', 'The maximum expected response size.', { default: 65536, advanced: true }),
    field.enum(
      'codec_send',
      'Determines how messages written to the subprocess are encoded, which allows them to be logically separated.',
      CODECS,
      { default: 'lines', advanced: true },
    ),
    field.enum(
      'codec_recv',
      'Determines how messages read from the subprocess are decoded, which allows them to be logically separated.',
      CODECS,
      { default: 'lines', advanced: true },
    ),
  ],
  examples: [
    {
      title: 'Uppercase through a long-running program',
      config: `input:
  generate:
    count: 2
    interval: ''
    mapping: 'root = "hello"'
pipeline:
  processors:
    - subprocess:
        name: sed
        args: [ '-u', 's/hello/world/' ]
output:
  stdout: {}
`,
    },
  ],
  build: async (config, ctx): Promise<Processor> => {
    const proc = new LiveSubprocess(
      config.name,
      config.args,
      config.max_buffer,
      config.codec_recv,
      ctx.logger,
    );
    try {
      await proc.start();
    } catch (err) {
      throw new ConfigError(errorMessage(err));
    }
    // One exchange at a time: answers are matched to messages by order.
    let queue: Promise<unknown> = Promise.resolve();
    const logError = processorErrorLog(ctx.logger);
    return {
      process: perMessage(
        (msg) => {
          const turn = queue.then(async () => {
            const answer = await exchange(proc, config.codec_send, contentOf(msg));
            const out = msg.copy();
            out.setBytes(Buffer.from(answer));
            return out;
          });
          queue = turn.catch(() => {});
          return turn;
        },
        {
          onError: (err) => {
            ctx.logger.error(`Failed to send message to subprocess: ${err.message}`);
            logError(err);
          },
        },
      ),
      close: () => proc.close(),
    };
  },
});
