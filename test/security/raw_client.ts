// Raw-socket clients that misbehave on purpose: send bytes, then reset, half-close or just wait.
import { connect, type Socket } from 'node:net';

export interface RawOptions {
  /** What to do once the bytes are written: reset (RST), end (half-close) or read the answer. */
  after: 'reset' | 'end' | 'read';
  /** Wait this long after writing before the reset/end (0 = at once). */
  delayMs?: number;
}

/** Sends `bytes` to 127.0.0.1:port and resolves with what came back (never rejects). */
export function rawExchange(port: number, bytes: string | Buffer, options: RawOptions): Promise<string> {
  return new Promise((resolve) => {
    const socket: Socket = connect({ host: '127.0.0.1', port });
    const chunks: Buffer[] = [];
    const finish = () => resolve(Buffer.concat(chunks).toString('latin1'));
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', finish);
    socket.on('close', finish);
    socket.setTimeout(3000, () => socket.destroy());
    socket.on('connect', () => {
      socket.write(bytes);
      if (options.after === 'read') return;
      const act = () => (options.after === 'reset' ? socket.resetAndDestroy() : socket.end());
      if (options.delayMs) setTimeout(act, options.delayMs);
      else act();
    });
  });
}

/** An upgrade request for `path` with no credentials. */
export function upgradeRequest(path: string, host = '127.0.0.1'): string {
  return [
    `GET ${path} HTTP/1.1`,
    `Host: ${host}`,
    'Connection: Upgrade',
    'Upgrade: websocket',
    'Sec-WebSocket-Version: 13',
    'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
    '',
    '',
  ].join('\r\n');
}
