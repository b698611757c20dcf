// Hand-written baseline for W3: a bare node:http server that parses each POSTed JSON body, applies
// the same ten assignments as the nekton mapping and answers 200 with an empty body.
import { createServer } from 'node:http';
import { mapDocument } from './doc_mapping.mjs';

let checksum = 0;
const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    try {
      checksum += mapDocument(JSON.parse(Buffer.concat(chunks).toString('utf8'))).age_months;
      res.end();
    } catch (err) {
      res.statusCode = 400;
      res.end(String(err));
    }
  });
});
server.listen(Number(process.argv[2]), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(checksum >= 0 ? 0 : 1)));
