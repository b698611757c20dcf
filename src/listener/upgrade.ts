// HTTP upgrade requests (websockets) on the shared server: they are routed like any request, and
// an endpoint that speaks websocket takes over the socket with upgradeOf(req).
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';

export interface UpgradeRequest {
  socket: Duplex;
  /** Bytes already read past the request headers (the first websocket frames, if any). */
  head: Buffer;
}

const upgrades = new WeakMap<IncomingMessage, UpgradeRequest>();

export function markUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
  upgrades.set(req, { socket, head });
}

/** The raw socket of an upgrade request, or undefined for a plain request. */
export function upgradeOf(req: IncomingMessage): UpgradeRequest | undefined {
  return upgrades.get(req);
}
