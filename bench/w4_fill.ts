import { createClient } from '@redis/client';
import { makeDocument } from './documents.js';

const [stream, n] = [process.argv[2]!, Number(process.argv[3] ?? 200000)];
const redis = createClient({ url: 'redis://127.0.0.1:6379' });
await redis.connect();
await redis.del(stream);
for (let i = 0; i < n; i += 5000) {
  const multi = redis.multi();
  for (let j = i; j < Math.min(i + 5000, n); j++) multi.xAdd(stream, '*', { body: makeDocument(j) });
  await multi.exec();
}
await redis.quit();
