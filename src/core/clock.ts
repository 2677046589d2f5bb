import { InterruptedError } from './errors.js';

/** Time as the HTTP layers see it, so tests can run rate-limit waits and back-off on a fake clock. */
export interface Clock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** A number in [0, 1): the jitter source. */
  random(): number;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  random: () => Math.random(),
  sleep(ms, signal) {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(new InterruptedError());
      const timer = setTimeout(done, Math.max(0, ms));
      function done() {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }
      function onAbort() {
        clearTimeout(timer);
        reject(new InterruptedError());
      }
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  },
};
