// Go-style `host:port` listen addresses: `0.0.0.0:4195`, `:4195`, `[::1]:0`, `localhost:8080`.
import { ConfigError } from '../engine/errors.js';

export interface ListenAddress {
  /** undefined = every interface (Go's empty host). */
  host: string | undefined;
  port: number;
}

export function parseListenAddress(address: string): ListenAddress {
  const colon = address.lastIndexOf(':');
  if (colon < 0) throw new ConfigError(`address ${address}: missing port in address`);
  let host = address.slice(0, colon);
  const portText = address.slice(colon + 1);
  if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
  else if (host.includes(':')) throw new ConfigError(`address ${address}: too many colons in address`);
  const port = Number(portText);
  if (!/^\d{1,5}$/.test(portText) || port > 65535) {
    throw new ConfigError(`address ${address}: invalid port "${portText}"`);
  }
  return { host: host === '' ? undefined : host, port };
}
