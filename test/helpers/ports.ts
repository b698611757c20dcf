// Loopback ports for tests that must name a port before anything listens on it.
import { type AddressInfo, createServer } from 'node:net';

/**
 * A TCP port on 127.0.0.1 that was free a moment ago (bound to port 0, then released): for a
 * server the test starts on a known port, or as an address where nothing listens.
 */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', resolve);
  });
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** A loopback port nothing listens on, for a test that needs its connections refused. */
export const closedPort = freePort;
