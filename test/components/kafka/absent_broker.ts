// The Kafka-family inputs pointed at a port nobody listens on: the connection error they report.
import { closedPort, waitFor } from '../../helpers/kit.js';
import { buildInput } from '../http_connectors/support.js';

/**
 * Builds `component` (its YAML under `input:`, with `PORT` standing for a closed port), starts a
 * read, and returns the port, the first connection error and whether the input still says connected.
 */
export async function absentBrokerError(
  component: (port: number) => string,
): Promise<{ port: number; error: string; connected: boolean | undefined }> {
  const port = await closedPort();
  const { input } = await buildInput(`input:\n${component(port)}output:\n  drop: {}\n`);
  void input.read();
  const error = await waitFor(() => input.statuses()[0]?.error, {
    message: 'a connection error',
    timeoutMs: 15_000,
  });
  const connected = input.statuses()[0]?.connected;
  await input.close();
  return { port, error, connected };
}
