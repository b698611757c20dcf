// `log`: writes one log line per message (message and fields interpolated); messages pass unchanged.
import type { Logger } from 'pino';
import type { Interpolation, Mapping } from '../../bloblang/index.js';
import { defineComponent, field } from '../../config/spec.js';
import type { Processor } from '../../engine/component.js';
import { ConfigError, errorMessage } from '../../engine/errors.js';
import type { Batch } from '../../message/message.js';

type LogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error';
const LEVELS: Record<string, LogLevel> = {
  TRACE: 'trace',
  DEBUG: 'debug',
  INFO: 'info',
  WARN: 'warn',
  ERROR: 'error',
};

export class LogProcessor implements Processor {
  constructor(
    private readonly logger: Logger,
    private readonly level: LogLevel,
    private readonly message: Interpolation,
    private readonly fieldsMapping: Mapping | null,
    private readonly fields: [string, Interpolation][],
  ) {}

  process(batch: Batch): Batch[] {
    // Skip all work when the level is switched off.
    if (!this.logger.isLevelEnabled(this.level)) return [batch];
    for (let i = 0; i < batch.length; i++) this.logOne(batch, i);
    return [batch];
  }

  private logOne(batch: Batch, i: number): void {
    let extra: Record<string, unknown> | null = null;
    if (this.fieldsMapping) {
      let value: unknown;
      try {
        value = this.fieldsMapping.query(batch, i);
      } catch (err) {
        this.logger.error(`failed to execute fields mapping: ${errorMessage(err)}`);
        return;
      }
      if (
        typeof value !== 'object' ||
        value === null ||
        Array.isArray(value) ||
        value instanceof Uint8Array
      ) {
        this.logger.error(`fields mapping yielded a non-object result: ${describe(value)}`);
        return;
      }
      extra = { ...(value as Record<string, unknown>) };
    }
    if (this.fields.length > 0) {
      extra ??= {};
      for (const [key, value] of this.fields) extra[key] = value.render(batch, i);
    }
    const text = this.message.render(batch, i);
    if (extra) this.logger[this.level](extra, text);
    else this.logger[this.level](text);
  }

  async close(): Promise<void> {}
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (value instanceof Uint8Array) return 'bytes';
  return typeof value;
}

export const spec = defineComponent({
  name: 'log',
  kind: 'processor',
  status: 'stable',
  categories: ['Utility'],
  summary: 'Writes a log line for each message; messages always pass through unchanged.',
  description: `The \`message\` is interpolated per message, so it can show the content, metadata or \`error()\` of each message. With a structured log format (\`json\` or \`logfmt\`), \`fields_mapping\` adds fields to each line: the object its mapping builds. Log lines carry \`custom_source: true\` so they can be told apart from nekton's own.`,
  fields: [
    field.enum('level', 'The log level of the lines.', ['ERROR', 'WARN', 'INFO', 'DEBUG', 'TRACE'], {
      default: 'INFO',
    }),
    field.mapping(
      'fields_mapping',
      'An optional Bloblang mapping building an object whose fields are added to each line.',
      {
        optional: true,
        examples: [
          'root.reason = "cus I wana"\nroot.id = this.id\nroot.age = this.user.age.number()\nroot.kafka_topic = meta("kafka_topic")',
        ],
      },
    ),
    field.interpolated('message', 'The message to log.', { default: '' }),
    field.map(
      field.interpolated(
        'fields',
        'Fields to add to each line, each an interpolated string. Use `fields_mapping` instead.',
        {
          optional: true,
          deprecated: true,
        },
      ),
    ),
  ],
  examples: [
    {
      title: 'Log each message with fields',
      config: `input:
  generate:
    count: 2
    interval: ''
    mapping: 'root = {"id": uuid_v4(), "user": {"age": 30}}'
pipeline:
  processors:
    - log:
        level: INFO
        message: 'received \${! content() }'
        fields_mapping: |
          root.id = this.id
          root.age = this.user.age
output:
  stdout: {}
`,
    },
  ],
  build: (config, ctx): Processor => {
    const level = LEVELS[config.level.toUpperCase()];
    if (!level) throw new ConfigError(`log level not recognised: ${config.level.toUpperCase()}`);
    const fields = Object.entries(config.fields ?? {}).filter(
      (entry): entry is [string, Interpolation] => entry[1] !== undefined,
    );
    return new LogProcessor(
      ctx.logger.child({ custom_source: true }),
      level,
      config.message,
      config.fields_mapping ?? null,
      fields,
    );
  },
});
