/** Waits `ms`, or rejects at once with the signal's reason when it aborts (job cancelled, timed out). */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** A signal for clean-up after a failed or cancelled operation: fresh, but bounded. */
export const cleanupSignal = (ms: number) => AbortSignal.timeout(ms);
