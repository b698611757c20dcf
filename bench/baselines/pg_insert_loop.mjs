// Hand-written baseline for W8 (PostgreSQL): read a file of JSON lines, insert (id, name, city) of
// each document, BATCH rows per multi-row INSERT, one statement at a time. argv: dsn table file batch.
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import pg from 'pg';

const [dsn, table, file, batchText] = process.argv.slice(2);
const batch = Number(batchText);
const client = new pg.Client({ connectionString: dsn });
await client.connect();
let rows = [];
const flush = async () => {
  if (rows.length === 0) return;
  const values = rows.map((_, i) => `($${i * 3 + 1}, $${i * 3 + 2}, $${i * 3 + 3})`).join(', ');
  await client.query(`INSERT INTO ${table} (id, name, city) VALUES ${values}`, rows.flat());
  rows = [];
};
for await (const line of createInterface({ input: createReadStream(file) })) {
  if (!line) continue;
  const doc = JSON.parse(line);
  rows.push([doc.id, doc.user.name, doc.user.address.city]);
  if (rows.length >= batch) await flush();
}
await flush();
await client.end();
