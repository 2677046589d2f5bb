import type { Clock } from '../../src/core/clock.js';
import { InterruptedError } from '../../src/core/errors.js';

/** A clock whose sleeps return at once and move time forward, recording every wait. */
export class FakeClock implements Clock {
  t: number;
  rand = 0.5;
  readonly sleeps: number[] = [];

  constructor(start = Date.UTC(2026, 10, 22, 12, 0, 0)) {
    this.t = start;
  }
  now(): number {
    return this.t;
  }
  random(): number {
    return this.rand;
  }
  async sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) throw new InterruptedError();
    this.sleeps.push(ms);
    this.t += Math.max(0, ms);
  }
  get totalSlept(): number {
    return this.sleeps.reduce((a, b) => a + b, 0);
  }
}
