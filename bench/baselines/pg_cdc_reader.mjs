// Hand-written baseline for W13 (postgres_cdc): streams an existing pgoutput slot with
// pg-logical-replication, turns each insert into a JSON document (the row, as nekton's message
// body), acknowledges the last LSN and exits once COUNT inserts arrived.
// argv: dsn slot publication count.
import { LogicalReplicationService, PgoutputPlugin } from 'pg-logical-replication';

const [dsn, slot, publication, countText] = process.argv.slice(2);
const count = Number(countText);
const service = new LogicalReplicationService(
  { connectionString: dsn },
  { acknowledge: { auto: false, timeoutSeconds: 0 } },
);
const plugin = new PgoutputPlugin({ protoVersion: 1, publicationNames: [publication] });
let seen = 0;
let size = 0;
const finished = new Promise((resolve, reject) => {
  service.on('error', reject);
  service.on('data', (lsn, log) => {
    if (log.tag !== 'insert') return;
    size += JSON.stringify(log.new).length;
    if (++seen === count) resolve(lsn);
  });
});
service.subscribe(plugin, slot).catch(() => undefined);
const lsn = await finished;
await service.acknowledge(lsn);
await service.stop();
process.stdout.write(`${seen} ${size}\n`);
