// `nekton blobl server`: the Bloblang playground web page, served until SIGINT or SIGTERM.
import { playgroundUrl, startPlayground } from '../playground/server.js';

export async function runPlayground(address: string): Promise<void> {
  const server = await startPlayground(address);
  process.stderr.write(`Bloblang playground listening at ${playgroundUrl(server)}\n`);
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  await server.close();
}
