// `nekton blobl server`: the Bloblang playground web page, served until SIGINT or SIGTERM, with the
// reference's flags (--host, --port, --no-open, --mapping-file, --input-file, --write).
import { errorMessage } from '../engine/errors.js';
import { PlaygroundFiles } from '../playground/files.js';
import { playgroundUrl, startPlayground } from '../playground/server.js';
import { openBrowser } from './open_browser.js';

export interface PlaygroundOptions {
  host: string;
  port: string;
  /** nekton's older `host:port` form; wins over host and port when given. */
  address?: string;
  open: boolean;
  mappingFile?: string;
  inputFile?: string;
  write: boolean;
}

export async function runPlayground(options: PlaygroundOptions): Promise<number> {
  const warn = (message: string) => process.stderr.write(`${message}\n`);
  let files: PlaygroundFiles;
  try {
    files = await PlaygroundFiles.load({ ...options, warn });
  } catch (e) {
    warn(`failed to read playground file: ${errorMessage(e)}`);
    return 1;
  }
  const server = await startPlayground(options.address ?? `${options.host}:${options.port}`, files);
  const url = playgroundUrl(server);
  warn(`Bloblang playground listening at ${url}`);
  warn(
    'WARNING: this server is for local debugging and experimentation: Bloblang can read environment variables and files, do not expose it to the internet',
  );
  if (options.open) openBrowser(url, warn);
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
  await files.flush();
  return 0;
}
