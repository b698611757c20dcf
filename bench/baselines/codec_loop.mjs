// Hand-written baselines for W10/W11: read a file of JSON lines and, per document, encode it with
// the library and decode it back to JSON text, as the nekton pipeline's from_json + to_json do.
// argv: protobuf|avro schemaFile file.
import { createReadStream, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const [kind, schemaFile, file] = process.argv.slice(2);
let roundTrip;
if (kind === 'protobuf') {
  const { default: protobuf } = await import('protobufjs');
  const Doc = protobuf.loadSync(schemaFile).lookupType('bench.Doc');
  roundTrip = (doc) => {
    const bytes = Doc.encode(Doc.fromObject(doc)).finish();
    return JSON.stringify(Doc.toObject(Doc.decode(bytes), { enums: String, longs: String }));
  };
} else {
  const { default: avro } = await import('avsc');
  const type = avro.Type.forSchema(JSON.parse(readFileSync(schemaFile, 'utf8')));
  roundTrip = (doc) => JSON.stringify(type.fromBuffer(type.toBuffer(type.clone(doc, { wrapUnions: false }))));
}
let count = 0;
let size = 0;
for await (const line of createInterface({ input: createReadStream(file) })) {
  if (!line) continue;
  size += roundTrip(JSON.parse(line)).length;
  count++;
}
process.stdout.write(`${count} ${size}\n`);
