// What the amqp_0_9 input and output declare alike: the broker URL list and its lint rule.
import { expandUrls, field } from '../../config/spec.js';

/** The `urls` field; the factory receives the URLs with comma-separated entries split out. */
export function amqpUrlsField(examples: string[][]) {
  return field.urlList(
    'urls',
    'Brokers to connect to, tried in order until one accepts; an entry may hold several URLs separated by commas.',
    { examples },
  );
}

/** A config that names no broker cannot connect anywhere: said at lint, not at start. */
export function lintAmqpUrls(config: { urls: readonly string[] }): string[] {
  return expandUrls(config.urls ?? []).length === 0 ? ['amqp_0_9: urls must name at least one broker'] : [];
}
