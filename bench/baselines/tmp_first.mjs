import { LogicalReplicationService, PgoutputPlugin } from 'pg-logical-replication';

const t0 = performance.now();
const [dsn, slot, publication, countText] = process.argv.slice(2);
const service = new LogicalReplicationService(
  { connectionString: dsn },
  { acknowledge: { auto: false, timeoutSeconds: 0 }, flowControl: { enabled: true } },
);
const plugin = new PgoutputPlugin({
  protoVersion: 1,
  publicationNames: [publication],
  messages: process.env.MSG === '1',
});
let seen = 0;
const done = new Promise((resolve) =>
  service.on('data', (lsn, log) => {
    if (seen === 0) console.log('first', log.tag, (performance.now() - t0).toFixed(0));
    if (log.tag === 'insert' && ++seen === Number(countText)) resolve(lsn);
  }),
);
service.subscribe(plugin, slot).catch(() => undefined);
const lsn = await done;
console.log('all', (performance.now() - t0).toFixed(0));
await service.acknowledge(lsn);
await service.stop();
