// Prints the W4 Redis nekton config for a source and target stream (for profiling by hand).
import { mappingYaml } from './documents.js';

const [source, target, group] = process.argv.slice(2);
process.stdout.write(
  `http:\n  enabled: false\nlogger:\n  level: WARN\ninput:\n  redis_streams:\n    url: redis://127.0.0.1:6379\n    streams: [ ${source} ]\n    consumer_group: ${group}\n    limit: 100\npipeline:\n  processors:\n${mappingYaml(4)}output:\n  redis_streams:\n    url: redis://127.0.0.1:6379\n    stream: ${target}\n    batching:\n      count: 100\n      period: 20ms\n`,
);
