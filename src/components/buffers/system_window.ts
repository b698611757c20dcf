// `system_window` buffer: tumbling or sliding windows of fixed size on the system clock.
import { toTimestamp } from '../../bloblang/methods/time.js';
import { parseGoDuration } from '../../bloblang/methods/time_duration.js';
import { defineComponent, field } from '../../config/spec.js';
import type { Buffer } from '../../engine/component.js';
import { errorMessage } from '../../engine/errors.js';
import type { Value } from '../../message/value.js';
import { SystemWindowBuffer, type WindowTimes } from './system_window_buffer.js';

interface DurationTexts {
  size: string;
  slide: string;
  offset: string;
  allowed_lateness: string;
}

/** The durations in nanoseconds, or the reference's build errors as lint problems. */
function windowTimes(config: DurationTexts): { times: WindowTimes | null; problems: string[] } {
  const problems: string[] = [];
  const parse = (name: keyof DurationTexts, required: boolean): bigint => {
    const text = config[name] ?? '';
    if (!required && text === '') return 0n;
    try {
      return parseGoDuration(text);
    } catch (err) {
      problems.push(`failed to parse field '${name}' as duration: ${errorMessage(err)}`);
      return 0n;
    }
  };
  const size = parse('size', true);
  const slide = parse('slide', false);
  const offset = parse('offset', false);
  const allowedLateness = parse('allowed_lateness', false);
  if (problems.length > 0) return { times: null, problems };
  if (slide >= size)
    problems.push(`invalid window slide '${config.slide}' must be lower than the size '${config.size}'`);
  if (offset >= size)
    problems.push(`invalid offset '${config.offset}' must be lower than the size '${config.size}'`);
  if (slide > 0n && offset >= slide)
    problems.push(`invalid offset '${config.offset}' must be lower than the slide '${config.slide}'`);
  if (allowedLateness >= size)
    problems.push(
      `invalid allowed_lateness '${config.allowed_lateness}' must be lower than the size '${config.size}'`,
    );
  return { times: problems.length > 0 ? null : { size, slide, offset, allowedLateness }, problems };
}

export const spec = defineComponent({
  name: 'system_window',
  kind: 'buffer',
  status: 'beta',
  categories: ['Windowing'],
  summary:
    'Chops a stream of messages into tumbling or sliding windows of fixed temporal size, following the system clock.',
  description: `A window is a grouping of messages that fit within a discrete measure of time following the system clock. Messages are allocated to a window either by the processing time (the time at which they're ingested) or by the event time, and this is controlled via the \`timestamp_mapping\` field.

In tumbling mode (default) the beginning of a window immediately follows the end of a prior window. When the buffer is initialized the first window to be created and populated is aligned against the zeroth minute of the zeroth hour of the day by default, and may therefore be open for a shorter period than the specified size.

A window is flushed only once the system clock surpasses its scheduled end. If an \`allowed_lateness\` is specified then the window will not be flushed until the scheduled end plus that length of time.

When a message is added to a window it has a metadata field \`window_end_timestamp\` added to it containing the timestamp of the end of the window as an RFC3339 string.

### Sliding windows

Sliding windows begin from an offset of the prior windows' beginning rather than its end, and therefore messages may belong to multiple windows. In order to produce sliding windows specify a \`slide\` duration.

### Back pressure

If back pressure is applied to this buffer either due to output services being unavailable or resources being saturated, windows older than the current and last according to the system clock will be dropped in order to prevent unbounded resource usage. This means you should ensure that under the worst case scenario you have enough system memory to store two windows' worth of data at a given time (plus extra for redundancy and other services).

### Delivery guarantees

Messages are not acknowledged to the input until they are either intentionally dropped or delivered as part of their window's batch. Messages belonging to an expired window are intentionally dropped (and acknowledged), so not every message entering the buffer is necessarily delivered. With a \`slide\` a message may belong to several windows: the first delivery acknowledges it, later ones are a best attempt. When the input ends or the stream stops, messages of windows not yet complete are nacked, so a source that redelivers sends them again next time.`,
  fields: [
    field.mapping(
      'timestamp_mapping',
      'A Bloblang mapping applied to each message during ingestion that provides the timestamp to use for allocating it a window. By default the function `now()` is used in order to generate a fresh timestamp at the time of ingestion (the processing time), whereas this mapping can instead extract a timestamp from the message itself (the event time). The timestamp value assigned to `root` must either be a numerical unix time in seconds (with up to nanosecond precision via decimals), or a string in ISO 8601 format. If the mapping fails or provides an invalid result the message is rejected (nacked to the input) and the problem is logged.',
      {
        default: 'root = now()',
        examples: ['root = this.created_at', 'root = meta("kafka_timestamp_unix").number()'],
      },
    ),
    field.string(
      'size',
      'A duration string describing the size of each window. By default windows are aligned to the zeroth minute and zeroth hour on the UTC clock, meaning windows of 1 hour duration will match the turn of each hour in the day, this can be adjusted with the `offset` field.',
      { examples: ['30s', '10m'] },
    ),
    field.string(
      'slide',
      'An optional duration string describing by how much time the beginning of each window should be offset from the beginning of the previous, and therefore creates sliding windows instead of tumbling. When specified this duration must be smaller than the `size` of the window.',
      { default: '', examples: ['30s', '10m'] },
    ),
    field.string(
      'offset',
      'An optional duration string to offset the beginning of each window by, otherwise they are aligned to the zeroth minute and zeroth hour on the UTC clock. The offset cannot be a larger or equal measure to the window size or the slide.',
      { default: '', examples: ['-6h', '30m'] },
    ),
    field.string(
      'allowed_lateness',
      'An optional duration string describing the length of time to wait after a window has ended before flushing it, allowing late arrivals to be included. Since this windowing buffer uses the system clock an allowed lateness can improve the matching of messages when using event time.',
      { default: '', examples: ['10s', '1m'] },
    ),
  ],
  lint: (config) => windowTimes(config as DurationTexts).problems,
  examples: [
    {
      title: 'Counting passengers at traffic lights',
      config: `input:
  generate:
    interval: 1s
    mapping: |
      root = {"traffic_light": "light-" + (random_int() % 3).string(), "created_at": now(), "registration_plate": uuid_v4(), "passengers": random_int() % 4}
buffer:
  system_window:
    timestamp_mapping: root = this.created_at
    size: 1h
pipeline:
  processors:
    - group_by_value:
        value: '\${! json("traffic_light") }'
    - mapping: |
        root = if batch_index() == 0 {
          {
            "traffic_light": this.traffic_light,
            "created_at": meta("window_end_timestamp"),
            "total_cars": json("registration_plate").from_all().unique().length(),
            "passengers": json("passengers").from_all().sum(),
          }
        } else { deleted() }
output:
  stdout: {}
`,
    },
  ],
  build: (config, ctx): Buffer => {
    const { times, problems } = windowTimes(config);
    if (!times) throw new Error(problems.join('; '));
    const mapping = config.timestamp_mapping;
    if (!mapping) throw new Error('a timestamp_mapping is required');
    return new SystemWindowBuffer(
      (batch, i) => {
        const value = mapping.query(batch, i) as Value;
        return toTimestamp(value).epochNs;
      },
      times,
      undefined,
      undefined,
      (err) => ctx.logger.error(err.message),
    );
  },
});
