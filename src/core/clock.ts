import { InterruptedError } from './errors.js';

/** Time as the HTTP layers see it, so tests can run rate-limit waits and back-off on a fake clock. */
export interface Clock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** A number in [0, 1): the jitter source. */
  random(): number;
}

/** Node's longest timer (2^31-1 ms, about 24.8 days); a longer one overflows and fires at once. */
export const MAX_TIMER_MS = 2_147_483_647;

export const systemClock: Clock = {
  now: () => Date.now(),
  random: () => Math.random(),
  sleep(ms, signal) {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(new InterruptedError());
      // Longer waits are chained timers, never one overflowed timer (which would send a request early).
      let left = Number.isNaN(ms) ? 0 : Math.max(0, ms);
      let timer = arm();
      function arm() {
        const step = Math.min(left, MAX_TIMER_MS);
        left -= step;
        return setTimeout(done, step);
      }
      function done() {
        if (left > 0) {
          timer = arm();
          return;
        }
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
