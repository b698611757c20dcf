// The field both beanstalkd components share, and its lint: an address the client can dial.
import { field } from '../../config/spec.js';
import { parseAddress } from './client.js';

export function addressField() {
  return field.string('address', 'An address to connect to.', { examples: ['127.0.0.1:11300'] });
}

/** Lint messages for `address`: it must be host:port, as the client dials it. */
export function lintAddress(address: unknown): string[] {
  // A missing or non-string address is reported by the field's own check.
  if (typeof address !== 'string') return [];
  try {
    parseAddress(address);
    return [];
  } catch (err) {
    return [`address: ${(err as Error).message}`];
  }
}
