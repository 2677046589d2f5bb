// Fixed-window rate limits. A window opens at the first request of a bucket and lasts windowMs.

export interface Bucket {
  key: string;
  limit: number;
}

export interface RateState {
  limit: number;
  remaining: number;
  /** Unix seconds at which the window ends, rounded up: waiting until then is never early. */
  resetSec: number;
  /** Whole seconds (at least 1) until the window ends, for Retry-After. */
  retryAfterSec: number;
}

interface Window {
  start: number;
  count: number;
}

export class RateLimiter {
  private readonly windows = new Map<string, Window>();

  constructor(private readonly windowMs: number) {}

  private current(key: string, now: number): Window {
    const w = this.windows.get(key);
    if (w && now < w.start + this.windowMs) return w;
    return { start: now, count: 0 };
  }

  private state(bucket: Bucket, w: Window, now: number): RateState {
    const end = w.start + this.windowMs;
    return {
      limit: bucket.limit,
      remaining: Math.max(0, bucket.limit - w.count),
      resetSec: Math.ceil(end / 1000),
      retryAfterSec: Math.max(1, Math.ceil((end - now) / 1000)),
    };
  }

  /** The state of a bucket without spending from it. */
  peek(bucket: Bucket, now: number): RateState {
    return this.state(bucket, this.current(bucket.key, now), now);
  }

  /**
   * Spends one request from every bucket, or from none if any is exhausted: a refused request
   * costs nothing, and never moves a window. The state returned is that of the refusing bucket,
   * else of the last bucket (the most specific one, which the caller reports).
   */
  take(buckets: readonly Bucket[], now: number): { allowed: boolean; state: RateState } {
    const windows = buckets.map((b) => this.current(b.key, now));
    for (const [i, bucket] of buckets.entries()) {
      const w = windows[i];
      if (w && w.count >= bucket.limit) return { allowed: false, state: this.state(bucket, w, now) };
    }
    let last: RateState | undefined;
    for (const [i, bucket] of buckets.entries()) {
      const w = windows[i];
      if (!w) continue;
      w.count += 1;
      this.windows.set(bucket.key, w);
      last = this.state(bucket, w, now);
    }
    if (!last) throw new Error('take() needs at least one bucket');
    return { allowed: true, state: last };
  }

  clear(): void {
    this.windows.clear();
  }
}
