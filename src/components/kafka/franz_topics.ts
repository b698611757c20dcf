// Which topics a kafka_franz consumer reads (names, or patterns over the cluster's topics), and
// the reference's checks of the topic and group fields.

import { compileConfigPatterns } from '../../config/config_patterns.js';
import type { Pattern } from '../../regexp/index.js';
import { refuseProblems } from '../fields/config_problems.js';
import type { KafkaFranzInputConfig } from './franz_input_fields.js';

/** Which topics to consume: names, or patterns matched against the cluster's topic list. */
export interface TopicSelection {
  names: string[];
  include: Pattern[];
  exclude: Pattern[];
}

/** The fields that say which topics to read and as which member (the same written and parsed). */
type TopicFields = Pick<
  KafkaFranzInputConfig,
  | 'topics'
  | 'regexp_topics'
  | 'regexp_topics_include'
  | 'regexp_topics_exclude'
  | 'consumer_group'
  | 'instance_id'
>;

const entries = (list: ReadonlyArray<string | undefined> | undefined): string[] =>
  (list ?? [])
    .flatMap((t) => (t ?? '').split(','))
    .map((t) => t.trim())
    .filter(Boolean);

/** The reference's own checks of field combinations, in its words (plus what nekton lacks). */
export function lintKafkaFranzInput(config: TopicFields): string[] {
  const topics = entries(config.topics);
  const include = entries(config.regexp_topics_include);
  const problems: string[] = [];
  if (topics.length === 0 && include.length === 0)
    problems.push('either topics or regexp_topics_include must be specified');
  if (topics.length > 0 && include.length > 0)
    problems.push('cannot specify both topics and regexp_topics_include, use one or the other');
  if (entries(config.regexp_topics_exclude).length > 0 && !config.regexp_topics && include.length === 0)
    problems.push(
      'regexp_topics_exclude can only be used when regexp_topics is set to true or regexp_topics_include is specified',
    );
  const explicit = config.regexp_topics ? [] : topics.filter((t) => t.includes(':'));
  if (explicit.length > 0) {
    problems.push(`explicit topic partitions (${explicit.join(', ')}) are not supported by nekton`);
  } else if (!config.consumer_group) {
    problems.push('a consumer group is mandatory when not using explicit topic partitions');
  }
  // Static membership needs @platformatic/kafka 1.27 or later, which requires Node 22.19; nekton
  // pins 1.22 so that it installs and runs on the Node 20 it claims. Refused, never ignored.
  if (config.instance_id)
    problems.push(
      'instance_id (static group membership) is not supported by nekton on its Node 20 Kafka client',
    );
  return problems;
}

/** The topics of a config; refuses what lint refuses, since a component built through the API skips lint. */
export function topicSelection(config: TopicFields, name = 'kafka_franz'): TopicSelection {
  refuseProblems(lintKafkaFranzInput(config), `${name}: `);
  const topics = entries(config.topics);
  const include = compileConfigPatterns(
    entries(config.regexp_topics_include),
    'kafka_franz: regexp_topics_include',
  );
  const exclude = compileConfigPatterns(
    entries(config.regexp_topics_exclude),
    'kafka_franz: regexp_topics_exclude',
  );
  if (config.regexp_topics) include.push(...compileConfigPatterns(topics, 'kafka_franz: topics'));
  return { names: config.regexp_topics ? [] : topics, include, exclude };
}

/** Where a partition without a usable commit starts, as the client library names it. */
export function startMode(
  config: Pick<KafkaFranzInputConfig, 'start_from_oldest' | 'start_offset'>,
): 'committed' | 'earliest' | 'latest' {
  return config.start_from_oldest === false ? 'latest' : config.start_offset;
}
