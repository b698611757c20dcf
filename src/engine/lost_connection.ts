// What a writer keeps to tell the engine that its connection dropped while no write was under
// way (OutputWriter.onConnectionLost): the engine then marks the output down and reconnects.

export class LostConnection {
  private listener: ((err: Error) => void) | null = null;

  /** The writer's onConnectionLost: the engine registers its listener here. */
  readonly listen = (listener: (err: Error) => void): void => {
    this.listener = listener;
  };

  /** Reports the loss; the writer calls it only for its current connection and while not closed. */
  report(err: Error): void {
    this.listener?.(err);
  }
}
