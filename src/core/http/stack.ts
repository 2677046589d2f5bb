import type { Clock } from '../clock.js';
import { formatWait } from '../durations.js';
import type { IO } from '../io.js';
import { fileExhaustedWindows } from '../ratelimit-state.js';
import { withLogging } from './log.js';
import { RateLimiter, RateWindows } from './ratelimit.js';
import { withRetry } from './retry.js';
import { createTransport } from './transport.js';
import type { Send } from './types.js';

export interface StackOptions {
  /** Where the waits and retries are announced (a notice, or the countdown on a long read's progress line). */
  io: IO;
  env: NodeJS.ProcessEnv;
  clock: Clock;
  /** Holds ratelimit-state.json: windows seen exhausted, shared with the next cssctl process. */
  configDir: string;
  timeoutMs: number;
  maxWaitMs: number;
  /** The layer under the verbose log (default: undici). */
  transport?: Send;
  /**
   * The rate-limit windows to count against (default: this stack's own). A long-lived front end gives every
   * call's stack the same ones (sharedHttp): one budget, while retries, waits and --max-wait stay the call's.
   */
  windows?: RateWindows;
}

/** What the stacks of several calls share: one transport (its connections) and one set of rate-limit windows. */
export interface SharedHttp {
  transport: Send;
  windows: RateWindows;
}

/** The transport and the windows for stacks that share them (the MCP server's tool calls). */
export function sharedHttp(
  o: Pick<StackOptions, 'configDir' | 'clock' | 'timeoutMs' | 'transport'>,
): SharedHttp {
  return {
    transport: o.transport ?? createTransport({ timeoutMs: o.timeoutMs, clock: o.clock }),
    // Overlapping calls: before the first rate-limit headers, the documented limits, not none (§13).
    windows: new RateWindows(
      fileExhaustedWindows(o.configDir, () => o.clock.now()),
      true,
    ),
  };
}

/**
 * The HTTP stack every request of a command goes down: retry → rate limit → verbose log → undici. Each layer is
 * a small function of its own (tested alone with a fake clock); this only stacks them and says what they do.
 */
export function httpStack(o: StackOptions): Send {
  const { io, clock } = o;
  const limiter = new RateLimiter({
    clock,
    maxWaitMs: o.maxWaitMs,
    ...(o.windows
      ? { windows: o.windows }
      : { shared: fileExhaustedWindows(o.configDir, () => clock.now()) }),
    onWait: ({ waitMs, reason }) => {
      // During a long read the wait is a countdown on its progress line (src/core/progress.ts).
      if (io.progress?.active) return io.progress.wait(waitMs);
      io.notice(
        `${reason === '429' ? 'rate limited by the service' : 'rate limit reached'}; waiting ${formatWait(waitMs)} before the next request`,
      );
    },
  });
  let send: Send = o.transport ?? createTransport({ timeoutMs: o.timeoutMs, clock });
  send = withLogging(send, (line) => io.debug(line), clock);
  send = limiter.layer(send);
  const retryBase = Number(o.env.CSSCTL_RETRY_BASE_MS);
  return withRetry(send, {
    clock,
    baseMs: Number.isFinite(retryBase) && retryBase >= 0 && o.env.CSSCTL_RETRY_BASE_MS ? retryBase : 1000,
    onRetry: ({ attempt, waitMs, reason }) =>
      io.notice(`${reason}; retrying in ${formatWait(waitMs)} (attempt ${attempt} of 3)`),
  });
}
