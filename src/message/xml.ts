// XML -> structured values in the reference's shape (mxj): elements as keys, attributes as
// `-name`, the text of an element with attributes or children as `#text`, repeated elements as
// arrays, comments and processing instructions dropped, text trimmed. With `cast`, numbers and
// booleans in text and attributes become numbers and booleans (as Go's ParseFloat/ParseBool read
// them). Shared by the `xml` processor and Bloblang's `parse_xml`.
import type { XMLParser } from 'fast-xml-parser';
import { fastXmlParserNow } from '../base/lazy_packages.js';
import { parseGoBool } from './go_bool.js';

const parsers = new Map<boolean, XMLParser>();

const GO_FLOAT = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
/** A string as mxj casts it: a float if Go's ParseFloat reads it, else a bool if ParseBool does. */
function castValue(text: string): unknown {
  if (GO_FLOAT.test(text)) return Number(text);
  return parseGoBool(text) ?? text;
}

function parser(cast: boolean): XMLParser {
  let p = parsers.get(cast);
  if (!p) {
    p = new (fastXmlParserNow().XMLParser)({
      ignoreAttributes: false,
      attributeNamePrefix: '-',
      textNodeName: '#text',
      parseTagValue: false,
      parseAttributeValue: false,
      ignoreDeclaration: true,
      ignorePiTags: true,
      removeNSPrefix: true,
      trimValues: true,
      processEntities: true,
      htmlEntities: false,
      // Attributes without a value (`<a b>`) are an error, as in Go's decoder.
      allowBooleanAttributes: false,
      tagValueProcessor: (_name, value) => (cast ? castValue(value) : value),
      attributeValueProcessor: (_name, value) => (cast ? castValue(value) : value),
    });
    parsers.set(cast, p);
  }
  return p;
}

export function xmlToStructured(text: string, cast: boolean): Record<string, unknown> {
  const valid = fastXmlParserNow().XMLValidator.validate(text);
  if (valid !== true) throw new Error(`${valid.err.msg} (line ${valid.err.line}, column ${valid.err.col})`);
  const parsed = parser(cast).parse(text) as Record<string, unknown>;
  if (Object.keys(parsed).length === 0) throw new Error('no root element');
  return parsed;
}
