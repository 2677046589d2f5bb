import type { Clock } from '../clock.js';
import { DeadlineError, NetworkError } from '../errors.js';
import type { HttpResponse, Send } from './types.js';

export const RETRY_STATUSES = new Set([500, 502, 503, 504]);

export interface RetryOptions {
  clock: Clock;
  /** Tries in all, the first included. */
  attempts?: number;
  /** The wait after attempt n is 2^n × base (2 s then 4 s with the default base of 1 s), plus ≤10% jitter. */
  baseMs?: number;
  onRetry?: (info: { attempt: number; waitMs: number; reason: string }) => void;
}

function retryable(outcome: { res?: HttpResponse; err?: unknown }): string | undefined {
  if (outcome.res) {
    return RETRY_STATUSES.has(outcome.res.status)
      ? `the service answered HTTP ${outcome.res.status}`
      : undefined;
  }
  const err = outcome.err;
  if (err instanceof NetworkError && (err.kind === 'timeout' || err.kind === 'reset')) return err.message;
  return undefined;
}

/** Retries server errors, resets and timeouts. Every POST carries its Idempotency-Key, so replays are safe. */
export function withRetry(next: Send, opts: RetryOptions): Send {
  const attempts = opts.attempts ?? 3;
  const base = opts.baseMs ?? 1000;
  return async (req) => {
    for (let attempt = 1; ; attempt++) {
      let outcome: { res?: HttpResponse; err?: unknown };
      try {
        outcome = { res: await next({ ...req, attempt }) };
      } catch (err) {
        outcome = { err };
      }
      const reason = retryable(outcome);
      if (!reason || attempt >= attempts) {
        if (outcome.res) return outcome.res;
        throw outcome.err;
      }
      const waitMs = Math.round(2 ** attempt * base * (1 + 0.1 * opts.clock.random()));
      // A retry that would come at or after the deadline could learn nothing: say so now, not after waiting.
      if (req.deadline !== undefined && opts.clock.now() + waitMs >= req.deadline) {
        throw new DeadlineError(
          `${reason}; a retry in ${(waitMs / 1000).toFixed(1)}s would come after the deadline`,
          { cause: outcome.err },
        );
      }
      opts.onRetry?.({ attempt: attempt + 1, waitMs, reason });
      await opts.clock.sleep(waitMs, req.signal);
    }
  };
}
