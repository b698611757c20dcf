// Which consumed offsets may be committed. Kafka commits one offset per partition ("everything
// before this was processed"), while nekton delivers messages out of order and in parallel: a
// partition's commit point only moves past an offset once it and every earlier one were delivered.
// At most `limit` messages per partition are outstanding (the input's `checkpoint_limit`).

interface Tracked<C> {
  offset: bigint;
  done: boolean;
  commit: C;
}

interface PartitionState<C> {
  outstanding: Tracked<C>[];
  /** The commit handle of the furthest delivered offset not yet committed. */
  ready: C | null;
  waiters: Array<() => void>;
}

export class PartitionCheckpoints<C> {
  private readonly partitions = new Map<string, PartitionState<C>>();

  constructor(private readonly limit: number) {}

  /** Whether partition `key` may hand out another message. */
  hasRoom(key: string): boolean {
    return this.outstanding(key) < this.limit;
  }

  /** Resolves once partition `key` has fewer than `limit` messages outstanding, or on release(). */
  waitForRoom(key: string): Promise<void> {
    if (this.hasRoom(key)) return Promise.resolve();
    const state = this.state(key);
    return new Promise<void>((resolve) => state.waiters.push(resolve));
  }

  /** Records a handed-out message; call the returned function once it was delivered. */
  track(key: string, offset: bigint, commit: C): () => void {
    const state = this.state(key);
    const entry: Tracked<C> = { offset, done: false, commit };
    state.outstanding.push(entry);
    return () => {
      if (entry.done) return;
      entry.done = true;
      let advanced = false;
      while (state.outstanding[0]?.done) {
        state.ready = (state.outstanding.shift() as Tracked<C>).commit;
        advanced = true;
      }
      if (advanced) for (const wake of state.waiters.splice(0)) wake();
    };
  }

  outstanding(key: string): number {
    return this.partitions.get(key)?.outstanding.length ?? 0;
  }

  /** The commit handles to commit now, one per partition whose commit point moved; each is taken once. */
  takeReady(): C[] {
    const out: C[] = [];
    for (const state of this.partitions.values()) {
      if (state.ready === null) continue;
      out.push(state.ready);
      state.ready = null;
    }
    return out;
  }

  /** Wakes every waiter (on close). */
  release(): void {
    for (const state of this.partitions.values()) for (const wake of state.waiters.splice(0)) wake();
  }

  private state(key: string): PartitionState<C> {
    let state = this.partitions.get(key);
    if (!state) {
      state = { outstanding: [], ready: null, waiters: [] };
      this.partitions.set(key, state);
    }
    return state;
  }
}
