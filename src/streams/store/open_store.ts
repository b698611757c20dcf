// `--store URL` (or `streams.store` in the observability config) to a store: `file:DIR`,
// `postgres://` / `postgresql://`, `nats://HOST:PORT/BUCKET`.
import { ConfigError } from '../../engine/errors.js';
import { FileStore } from './file.js';
import { NatsStore } from './nats.js';
import { PostgresStore } from './postgres.js';
import type { StreamStore } from './store.js';

export function storeFromUrl(url: string): StreamStore {
  if (url.startsWith('file:')) {
    const dir = url.slice('file:'.length).replace(/^\/\/(?=\/)/, '');
    if (dir === '') throw new ConfigError('--store file: needs a directory, as in file:/var/lib/nekton');
    return new FileStore(dir);
  }
  if (/^postgres(ql)?:\/\//.test(url)) return new PostgresStore(url);
  if (url.startsWith('nats://')) return new NatsStore(url);
  throw new ConfigError(
    `unknown stream store '${url}': expected file:DIR, postgres://... or nats://HOST:PORT/BUCKET`,
  );
}
