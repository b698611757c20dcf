// A listener that cannot open (port taken, no permission, no such address) is the config's
// problem, not nekton's: one line naming the address, without a stack.
import { ConfigError } from '../engine/errors.js';

const REASONS: Record<string, string> = {
  EADDRINUSE: 'address already in use',
  EACCES: 'permission denied',
  EADDRNOTAVAIL: 'address not available on this machine',
  ENOTFOUND: 'host not found',
};

export function listenError(err: unknown, address: string): unknown {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  if (!code) return err;
  const reason = REASONS[code] ?? (err as Error).message;
  return new ConfigError(`cannot listen for HTTP requests at ${address}: ${reason}`);
}
