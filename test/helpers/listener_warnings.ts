// Node prints "MaxListenersExceededWarning: Possible EventTarget memory leak" when an AbortSignal
// gets its eleventh listener: a component that waits on one signal per message in flight must not.

/** Runs `work` and answers the listener-leak warnings Node emitted meanwhile (emitted a tick later). */
export async function listenerLeakWarnings(work: () => Promise<void>): Promise<string[]> {
  const warnings: string[] = [];
  const onWarning = (w: Error) => {
    if (w.name === 'MaxListenersExceededWarning') warnings.push(w.message);
  };
  process.on('warning', onWarning);
  try {
    await work();
    await new Promise((resolve) => setImmediate(resolve));
  } finally {
    process.off('warning', onWarning);
  }
  return warnings;
}
