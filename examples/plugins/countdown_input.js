// @ts-check
// An input plugin: counts down from `from` to 1, one message each, then ends (so `nekton -c`
// exits once everything was delivered). Each message is acknowledged through `ack`.
import { field, Message, registerInput } from 'nekton';

registerInput({
  name: 'countdown',
  summary: 'Emits the numbers from `from` down to 1 as JSON objects, then ends.',
  fields: [
    field.int('from', 'The first number.', { default: 3 }),
    field.string('label', 'Written into each message as `label`.', { default: 'countdown' }),
  ],
  build: (config, ctx) => {
    let next = config.from;
    return {
      async read() {
        if (next < 1) return null;
        const message = new Message({ n: next, label: config.label }, { countdown_left: String(next - 1) });
        next -= 1;
        return {
          messages: [message],
          ack: (err) => {
            if (err) ctx.logger.warn(`countdown: ${message.asString()} was not delivered: ${err.message}`);
          },
        };
      },
    };
  },
});
