// `command`: runs a program for each message, its content on stdin, and replaces the content
// with the program's stdout.
import { valueToString } from '../../bloblang/value.js';
import { defineComponent, field } from '../../config/spec.js';
import type { Processor } from '../../engine/component.js';
import { errorMessage } from '../../engine/errors.js';
import { perMessage, processorErrorLog } from '../../engine/processor_helpers.js';
import { runCommand } from '../subprocess/run_command.js';

/** Bounds of what one run may print: the reference keeps all of it; nekton will not run out of memory for it. */
export const MAX_STDOUT = 64 * 1024 * 1024;
export const MAX_STDERR = 1024 * 1024;

function kindOf(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (v instanceof Uint8Array) return 'bytes';
  if (typeof v === 'object') return 'object';
  return typeof v === 'boolean' ? 'bool' : typeof v;
}

export const spec = defineComponent({
  name: 'command',
  kind: 'processor',
  status: 'stable',
  categories: ['Integration'],
  summary: 'Executes a command for each message.',
  description: `The specified command is executed for each message processed, with the raw bytes of the message being fed into the stdin of the command process, and the resulting message having its contents replaced with the stdout of it. The command is run directly with its arguments (never through a shell).

## Performance

Since this processor executes a new process for each message performance will likely be an issue for high throughput streams. If this is the case then consider using the \`subprocess\` processor instead as it keeps the underlying process alive long term and uses codecs to insert and extract inputs and outputs to it via stdin/stdout.

## Error handling

If a non-zero error code is returned by the command then an error containing the entirety of stderr (or a generic message if nothing is written) is set on the message. These failed messages will continue through the pipeline unchanged, and can be dropped or placed in a dead letter queue with the usual error handling patterns. A command that prints more than 64 MiB to stdout is killed and its message fails in the same way; stderr is kept up to 1 MiB.

If the command is successful but stderr is written to then a metadata field \`command_stderr\` is populated with its contents.`,
  fields: [
    field.interpolated('name', 'The name of the command to execute.', {
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a Bloblang interpolation, not a JS template
      examples: ['bash', 'go', '${! @command }'],
    }),
    field.mapping(
      'args_mapping',
      'An optional Bloblang mapping that, when specified, should resolve into an array of arguments to pass to the command. Command arguments are expressed this way in order to support dynamic behavior.',
      { optional: true, examples: ['[ "-c", this.script_path ]'] },
    ),
  ],
  examples: [
    {
      title: 'Cron scheduled command',
      config: `input:
  generate:
    count: 1
    interval: ''
    mapping: 'root = ""'
  processors:
    - command:
        name: df
        args_mapping: '[ "-h" ]'
output:
  stdout: {}
`,
    },
  ],
  build: (config, ctx): Processor => {
    const argsMapping = config.args_mapping;
    return {
      process: perMessage(
        async (msg, batch, index) => {
          let name: string;
          try {
            name = config.name.render(batch, index);
          } catch (err) {
            throw new Error(`name interpolation error: ${errorMessage(err)}`);
          }
          let args: string[] = [];
          if (argsMapping !== undefined) {
            let result: unknown;
            try {
              result = argsMapping.query(batch, index);
            } catch (err) {
              throw new Error(`args mapping error: ${errorMessage(err)}`);
            }
            if (!Array.isArray(result))
              throw new Error(`args mapping result error: expected array value, got ${kindOf(result)}`);
            args = result.map((v) => valueToString(v));
          }
          const run = await runCommand(name, args, {
            stdin: msg.bytes(),
            maxStdout: MAX_STDOUT,
            maxStderr: MAX_STDERR,
            signal: ctx.signal,
          });
          if (run.error !== null)
            throw new Error(`execution error: ${run.error}: ${run.stderr.toString('utf8')}`);
          const out = msg.copy();
          out.setBytes(run.stdout);
          if (run.stderr.length > 0) out.setMeta('command_stderr', run.stderr.toString('utf8'));
          return out;
        },
        { onError: processorErrorLog(ctx.logger) },
      ),
      close: async () => {},
    };
  },
});
