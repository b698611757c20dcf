// @ts-check
// A processor plugin: replaces each of `words` in a message with asterisks, and counts the
// replacements in the metadata key `redacted`.
import { field, registerProcessor } from 'nekton';

registerProcessor({
  name: 'redact',
  summary: 'Replaces listed words with asterisks.',
  fields: [field.array(field.string('words', 'Words to hide (whole words, any case).'))],
  build: (config) => {
    const escaped = config.words.map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    const pattern = new RegExp(`\\b(${escaped.join('|') || '(?!)'})\\b`, 'gi');
    return {
      process(message) {
        let count = 0;
        const text = message.asString().replace(pattern, (word) => {
          count += 1;
          return '*'.repeat(word.length);
        });
        return message.withContent(text).setMetadata('redacted', String(count));
      },
    };
  },
});
