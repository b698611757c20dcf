// Queue and exchange arguments as RabbitMQ wants them: the config gives every value as a string.

// Queue arguments RabbitMQ only accepts as numbers or booleans; the config gives strings.
const NUMERIC_QUEUE_ARGUMENTS = new Set([
  'x-max-length',
  'x-max-length-bytes',
  'x-message-ttl',
  'x-expires',
  'x-max-priority',
  'x-stream-max-segment-size-bytes',
  'x-queue-version',
  'x-consumer-timeout',
  'x-delivery-limit',
  'x-initial-cluster-size',
]);
const BOOLEAN_QUEUE_ARGUMENTS = new Set(['x-single-active-consumer']);

export function queueArguments(
  args: Record<string, string | undefined> | undefined,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(args ?? {})) {
    if (value === undefined) continue;
    if (NUMERIC_QUEUE_ARGUMENTS.has(key) && /^-?\d+$/.test(value.trim())) out[key] = Number(value);
    else if (BOOLEAN_QUEUE_ARGUMENTS.has(key) && /^(true|false)$/i.test(value.trim()))
      out[key] = value.trim().toLowerCase() === 'true';
    else out[key] = value;
  }
  return out;
}
