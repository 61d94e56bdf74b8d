// The one abortable sleep of the project: every wait between attempts or rounds is a pause (through the Clock where a
// test moves time by hand), and the signal that stops the loop cuts the wait short.

/** Waits `ms`, or less when the signal aborts; an abort is the normal way a loop is told to stop. */
export function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted === true) {
      resolve();
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve();
    };
    // The global timer, looked up at each call, so that vitest's fake timers drive the pause too.
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
