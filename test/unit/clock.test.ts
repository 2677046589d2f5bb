import { setTimeout as delay } from 'node:timers/promises';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MAX_TIMER_MS, systemClock } from '../../src/core/clock.js';
import { InterruptedError } from '../../src/core/errors.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('systemClock.sleep past Node’s timer maximum (2^31-1 ms)', () => {
  it('does not overflow into a timer that fires at once, and warns nothing', async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.name);
    process.on('warning', onWarning);
    try {
      const ac = new AbortController();
      let settled = false;
      const p = systemClock.sleep(MAX_TIMER_MS + 5000, ac.signal).finally(() => (settled = true));
      // An overflowed timer becomes 1 ms: it would have fired long before this.
      await delay(100);
      expect(settled).toBe(false);
      ac.abort();
      await expect(p).rejects.toBeInstanceOf(InterruptedError);
      await delay(0); // let process 'warning' events through
      expect(warnings).not.toContain('TimeoutOverflowWarning');
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('chains timers: a wait of three timer maxima ends exactly when it is due, not before', async () => {
    vi.useFakeTimers();
    let done = false;
    const total = 3 * MAX_TIMER_MS + 10;
    const p = systemClock.sleep(total).then(() => (done = true));
    await vi.advanceTimersByTimeAsync(MAX_TIMER_MS);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(2 * MAX_TIMER_MS);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(9);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await p;
    expect(done).toBe(true);
  });

  it('short and non-positive waits still end', async () => {
    vi.useFakeTimers();
    const p = Promise.all([systemClock.sleep(0), systemClock.sleep(-5), systemClock.sleep(Number.NaN)]);
    await vi.advanceTimersByTimeAsync(1);
    await expect(p).resolves.toBeDefined();
  });

  it('Ctrl-C stops a chained wait at once', async () => {
    vi.useFakeTimers();
    const ac = new AbortController();
    const p = systemClock.sleep(5 * MAX_TIMER_MS, ac.signal);
    await vi.advanceTimersByTimeAsync(MAX_TIMER_MS + 1);
    ac.abort();
    await expect(p).rejects.toBeInstanceOf(InterruptedError);
  });
});
