// For commands that print a report (`test`, `list`): when the reader of stdout goes away
// (`nekton list --format cue | head`), stop quietly with the status a death by SIGPIPE shows,
// instead of crashing on the unhandled EPIPE.
import { STDOUT_CLOSED_EXIT_STATUS } from '../engine/stdout_closed.js';

export function exitQuietlyWhenStdoutCloses(): void {
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(STDOUT_CLOSED_EXIT_STATUS);
    throw err;
  });
}
