export const nowIso = () => new Date().toISOString();
/** The UTC day of a moment as YYYY-MM-DD. */
export const dayOf = (time: Date | number = Date.now()) => new Date(time).toISOString().slice(0, 10);
export const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
