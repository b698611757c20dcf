// Standard output closed by its reader (`nekton -c x.yaml | head`). Benthos, a Go program, dies of
// SIGPIPE there; nekton stops instead of retrying writes that can never succeed: the `stdout`
// output reports it here and the command running the service stops (exit status 141, as a shell
// shows a death by SIGPIPE). Writes already made were acked; the rest stays unacked at its source.

type Listener = (err: Error) => void;

const listeners = new Set<Listener>();
let closedBy: Error | null = null;

/** Called by whatever writes to process.stdout when a write failed with EPIPE. */
export function reportStdoutClosed(err: Error): void {
  if (closedBy) return;
  closedBy = err;
  for (const listener of [...listeners]) listener(err);
}

/** Subscribes; called at once when stdout was already reported closed. Returns the unsubscribe. */
export function onStdoutClosed(listener: Listener): () => void {
  if (closedBy) listener(closedBy);
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The exit status of a process stopped because its stdout was closed (128 + SIGPIPE). */
export const STDOUT_CLOSED_EXIT_STATUS = 141;
