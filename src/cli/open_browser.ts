// Opens a URL in the user's browser the way the reference's `blobl server` does (xdg-open, open,
// rundll32), but only where one can show: on Linux without DISPLAY or WAYLAND_DISPLAY (a server, a
// CI job, a test) nothing is started. Failures are reported, never fatal.
import { spawn } from 'node:child_process';

/** The command that opens `url` on this platform, or undefined when there is no browser to open. */
export function browserCommand(
  url: string,
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
): [string, string[]] | undefined {
  if (platform === 'darwin') return ['open', [url]];
  if (platform === 'win32') return ['rundll32', ['url.dll,FileProtocolHandler', url]];
  if (!env.DISPLAY && !env.WAYLAND_DISPLAY) return undefined;
  return ['xdg-open', [url]];
}

export function openBrowser(url: string, warn: (message: string) => void): void {
  const command = browserCommand(url);
  if (!command) return;
  const child = spawn(command[0], command[1], { stdio: 'ignore', detached: true });
  child.on('error', (e) => warn(`could not open a browser with ${command[0]}: ${e.message}`));
  child.unref();
}
