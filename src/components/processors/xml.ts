// `xml`: parses each message as an XML document into a structured (JSON) message.
import { defineComponent, field } from '../../config/spec.js';
import type { Processor } from '../../engine/component.js';
import { ConfigError, errorMessage } from '../../engine/errors.js';
import { perMessage, processorErrorLog } from '../../engine/processor_helpers.js';
import { xmlToStructured } from '../../message/xml.js';

export const spec = defineComponent({
  name: 'xml',
  kind: 'processor',
  status: 'stable',
  categories: ['Parsing'],
  summary: 'Parses messages as XML documents and converts them into JSON documents.',
  description: `## Operators

### \`to_json\`

Converts an XML document into a JSON structure, where elements appear as keys of an object according to the following rules:

- If an element contains attributes they are parsed by prefixing a hyphen, \`-\`, to the attribute label.
- If the element is a simple element and has attributes, the element value is given the key \`#text\`.
- XML comments, directives, and process instructions are ignored.
- When elements are repeated the resulting JSON value is an array.
- Namespace prefixes are dropped from element and attribute names.

For example \`<root><title>A title</title><elements id="1">foo1</elements><elements>foo2</elements></root>\` becomes \`{"root":{"title":"A title","elements":[{"#text":"foo1","-id":"1"},"foo2"]}}\`. With \`cast\` set to true, text and attribute values that read as numbers or booleans become numbers and booleans (\`"-id":1\`).

A message that is not well-formed XML (nekton checks this more strictly than the reference's lenient Go decoder: an unclosed element is an error) carries on unchanged with its error flag set. The \`operator\` must be \`to_json\`: any other value does not build.`,
  fields: [
    field.string('operator', 'An XML [operation](#operators) to apply to messages.', {
      default: '',
      options: ['to_json'],
    }),
    field.bool(
      'cast',
      'Whether to try to cast values that are numbers and booleans to the right type. Default: all values are strings.',
      {
        default: false,
      },
    ),
  ],
  examples: [
    {
      title: 'XML to JSON',
      config: `input:
  generate:
    count: 1
    mapping: 'root = "<root><title>A title</title><number id=\\"99\\">123</number></root>"'
pipeline:
  processors:
    - xml:
        operator: to_json
        cast: true
output:
  stdout: {}
`,
    },
  ],
  lint: (config) => (config.operator === 'to_json' ? [] : [`operator not recognised: ${config.operator}`]),
  build: (config, ctx): Processor => {
    // Also refused here for callers that build without linting first.
    if (config.operator !== 'to_json') throw new ConfigError(`operator not recognised: ${config.operator}`);
    const logError = processorErrorLog(ctx.logger);
    return {
      process: perMessage(
        (msg) => {
          let value: unknown;
          try {
            value = xmlToStructured(msg.text(), config.cast);
          } catch (err) {
            throw new Error(`failed to parse message as XML: ${errorMessage(err)}`);
          }
          const out = msg.copy();
          out.setStructured(value);
          return out;
        },
        { onError: logError },
      ),
      close: async () => {},
    };
  },
});
