import type { Clock } from '../clock.js';
import { CliError, DeadlineError, InterruptedError, RateLimitError } from '../errors.js';
import type { HttpRequest, HttpResponse, Send } from './types.js';

interface BucketState {
  limit?: number;
  remaining: number;
  /** Epoch ms at which the window resets. */
  resetAt: number;
  /**
   * Seen in an answer to this process, remembered from an earlier cssctl process, or assumed from the documented
   * limits while the service has sent no X-RateLimit-* headers (RateWindows.documented).
   */
  from: 'answer' | 'shared' | 'assumed';
}

/**
 * The furthest ahead a Reset or Retry-After may point and still be believed: one day. The service's windows
 * are a minute long; a value further out (10^8 s, a Reset in milliseconds) is a broken header. It is never
 * waited on nor remembered in ratelimit-state.json, and a remembered window is honoured only within it, so
 * one bad answer cannot block later commands for longer than this.
 */
export const MAX_RESET_AHEAD_MS = 24 * 60 * 60 * 1000;

export interface RateLimiterOptions {
  clock: Clock;
  /** Longest total time this command may spend waiting on rate limits (--max-wait). */
  maxWaitMs: number;
  /** Called before each wait with its length, for the one-line notice. */
  onWait?: (info: { waitMs: number; reason: 'limit-reached' | '429'; url: string }) => void;
  /** Shares exhausted windows with the next cssctl process (see ExhaustedWindows). */
  shared?: ExhaustedWindows;
  /**
   * The windows to count against, when several limiters share them (the MCP server: one budget for every tool
   * call, each call with its own --max-wait and its own waits). Default: windows of this limiter's own.
   */
  windows?: RateWindows;
}

/**
 * Windows known to be exhausted (bucket key → epoch ms of Reset), kept between processes so that a CI job
 * running cssctl command after command does not open each one with a 429.
 */
export interface ExhaustedWindows {
  load(): Record<string, number>;
  save(key: string, resetAt: number): void;
}

/** Which limit a request counts against; POST /scans and login have their own (service-api.md §8). */
export function bucketFor(method: string, path: string): string {
  const p = path.split('?')[0]!.replace(/\/+$/, '');
  if (p.endsWith('/auth/login')) return 'login';
  if (p.endsWith('/auth/refresh')) return 'refresh';
  if (method === 'POST' && p.endsWith('/scans')) return 'scans-create';
  return 'all';
}

/**
 * The windows a request counts against: services and workspaces each have their own limits; login and refresh
 * are limited per service (by IP, not by workspace); a scan creation also counts against the workspace's
 * general limit. `key` is the one its answer's X-RateLimit-* headers describe.
 */
export function windowsOf(req: Pick<HttpRequest, 'method' | 'url' | 'headers'>): {
  key: string;
  keys: string[];
} {
  const url = new URL(req.url);
  const bucket = bucketFor(req.method, url.pathname);
  const scope =
    bucket === 'login' || bucket === 'refresh'
      ? url.origin
      : `${url.origin} ${req.headers['x-tenant-slug'] ?? ''}`;
  const key = `${scope} ${bucket}`;
  return { key, keys: bucket === 'scans-create' ? [key, `${scope} all`] : [key] };
}

/**
 * What the service said of its windows (X-RateLimit-*), by window, and the requests in flight against each: one
 * budget. A command has its own; a long-lived front end (the MCP server) gives one to every tool call's limiter,
 * so overlapping calls take turns within the workspace's limit instead of each spending it as if alone.
 */
export class RateWindows {
  readonly buckets = new Map<string, BucketState>();
  readonly inFlight = new Map<string, number>();
  sharedLoaded = false;
  /**
   * The first request of a window whose limits are not known yet, by window: requests beside it wait for its
   * answer (documented only), which says the limits or, without headers, lets the documented ones be assumed.
   */
  readonly probes = new Map<string, Promise<void>>();

  /**
   * @param documented Before the service's first rate-limit headers, assume its documented limits (the MCP
   * server's overlapping calls: 60 at once against a 20-a-minute window would otherwise draw 40 × 429).
   */
  constructor(
    readonly shared?: ExhaustedWindows,
    readonly documented = false,
  ) {}
}

/** The service's documented limits (service-api.md §8), per minute, by the kind of window. */
export const DOCUMENTED_LIMITS: Record<string, number> = { all: 120, 'scans-create': 10 };
const WINDOW_MS = 60_000;

function kindOf(key: string): string {
  return key.slice(key.lastIndexOf(' ') + 1);
}

/**
 * Reads X-RateLimit-* from every answer; waits until Reset before a request whose bucket has nothing left,
 * and on 429 waits until Reset (or Retry-After, whichever is later; 60 s when neither) plus up to 1 s of
 * jitter before trying again. Never sends early; never waits past --max-wait in total.
 */
export class RateLimiter {
  private readonly buckets: Map<string, BucketState>;
  /** Requests sent and not yet answered, by bucket (an export keeps two in flight). */
  private readonly inFlight: Map<string, number>;
  /**
   * The wait under way for a bucket: a second request of this limiter held by the same window waits with the
   * first. Kept per limiter, not with shared windows: a wait listens to its own command's signal and counts
   * against its own --max-wait, so one cancelled tool call never ends another's wait.
   */
  private readonly waits = new Map<string, Promise<void>>();
  private waitedMs = 0;
  private readonly windows: RateWindows;

  constructor(private readonly opts: RateLimiterOptions) {
    this.windows = opts.windows ?? new RateWindows(opts.shared);
    this.buckets = this.windows.buckets;
    this.inFlight = this.windows.inFlight;
  }

  /**
   * The layer works out which window a request counts against from the request itself (its service, its
   * workspace header, its method and path): the request carries nothing for it, as octokit's throttling
   * plugin works out its own bucket.
   */
  layer(next: Send): Send {
    return async (req) => {
      const { key, keys } = windowsOf(req);
      for (;;) {
        // Checked again after each wait: a request sent beside this one may have taken what was left.
        this.loadShared();
        // Looked at without yielding: requests sent together must see the first one's probe.
        const probes = this.pendingProbes(keys);
        if (probes) {
          await this.waitForProbes(probes, req.signal);
          continue;
        }
        while (keys.some((k) => (this.buckets.get(k)?.remaining ?? 1) <= 0))
          await this.waitForBuckets(keys, req);
        // What this request will use is taken now, so a request sent beside it waits when it was the last.
        const probing = this.startProbes(keys);
        for (const k of keys) {
          const b = this.buckets.get(k);
          if (b) b.remaining--;
          this.inFlight.set(k, (this.inFlight.get(k) ?? 0) + 1);
        }
        let res: HttpResponse;
        try {
          res = await next(req);
        } catch (err) {
          for (const k of keys) this.inFlight.set(k, this.inFlight.get(k)! - 1);
          probing();
          throw err;
        }
        for (const k of keys) this.inFlight.set(k, this.inFlight.get(k)! - 1);
        this.record(key, res);
        this.assume(keys);
        probing();
        if (res.status !== 429) return res;
        const waitMs = this.waitAfter429(res);
        this.checkDeadline(req, waitMs, 'answer');
        await this.waitOnce(key, () => this.spend(waitMs, '429', req.url, req.signal));
      }
    };
  }

  /**
   * Documented windows only: a window whose limits are not known while its first request is under way is
   * waited on (that request's answer tells them); the caller then looks again.
   */
  private pendingProbes(keys: string[]): Promise<void>[] | undefined {
    if (!this.windows.documented) return undefined;
    const probes = keys.filter((k) => !this.buckets.has(k)).map((k) => this.windows.probes.get(k));
    const pending = probes.filter((p): p is Promise<void> => p !== undefined);
    return pending.length === 0 ? undefined : pending;
  }

  private async waitForProbes(pending: Promise<void>[], signal?: AbortSignal): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      const abort = () => reject(new InterruptedError());
      if (signal?.aborted) return abort();
      signal?.addEventListener('abort', abort, { once: true });
      void Promise.all(pending).then(() => {
        signal?.removeEventListener('abort', abort);
        resolve();
      });
    });
  }

  /** This request is the first of its windows whose limits are unknown: the others wait for it. Returns its end. */
  private startProbes(keys: string[]): () => void {
    if (!this.windows.documented) return () => undefined;
    const ends: (() => void)[] = [];
    for (const k of keys) {
      if (this.buckets.has(k) || this.windows.probes.has(k) || DOCUMENTED_LIMITS[kindOf(k)] === undefined)
        continue;
      let end!: () => void;
      this.windows.probes.set(k, new Promise<void>((resolve) => (end = resolve)));
      ends.push(() => {
        this.windows.probes.delete(k);
        end();
      });
    }
    return () => ends.forEach((e) => e());
  }

  /** An answer without rate-limit headers: its windows are assumed to have the documented limits. */
  private assume(keys: string[]): void {
    if (!this.windows.documented) return;
    const now = this.opts.clock.now();
    for (const k of keys) {
      const limit = DOCUMENTED_LIMITS[kindOf(k)];
      if (limit === undefined || this.buckets.has(k)) continue;
      this.buckets.set(k, {
        limit,
        // This request, and those still in flight, are spent from the window.
        remaining: limit - 1 - (this.inFlight.get(k) ?? 0),
        resetAt: now + WINDOW_MS,
        from: 'assumed',
      });
    }
  }

  /** Windows an earlier cssctl process saw exhausted, read once before the first request. */
  private loadShared(): void {
    const shared = this.windows.shared;
    if (this.windows.sharedLoaded || !shared) return;
    this.windows.sharedLoaded = true;
    const now = this.opts.clock.now();
    for (const [k, resetAt] of Object.entries(shared.load())) {
      if (resetAt > now && resetAt - now <= MAX_RESET_AHEAD_MS && !this.buckets.has(k)) {
        this.buckets.set(k, { remaining: 0, resetAt, from: 'shared' });
      }
    }
  }

  private async waitForBuckets(keys: string[], req: HttpRequest): Promise<void> {
    const { url, signal } = req;
    for (const k of keys) {
      const b = this.buckets.get(k);
      if (!b || b.remaining > 0) continue;
      const waitMs = b.resetAt - this.opts.clock.now();
      // Reset is never early (whole seconds, rounded up by the service): a small spread is enough, so an
      // export under the limit takes what the limit requires and not a second more per window.
      if (waitMs > 0) {
        const jitter = this.jitter(Math.min(250, waitMs / 100));
        this.checkDeadline(req, waitMs + jitter, b.from);
        await this.waitOnce(k, () => this.spend(waitMs + jitter, 'limit-reached', url, signal, b.from));
      }
      // The window has turned over: let the next answer tell us what is left.
      if (this.buckets.get(k) === b) this.buckets.delete(k);
    }
  }

  /**
   * A wait that would end at or after the request's deadline (--wait-timeout) is not begun: nothing can be
   * sent before it ends. When it would also pass --max-wait, the limit reached first decides: the deadline
   * (DeadlineError) if it comes no later than the rest of the --max-wait budget, else --max-wait (exit 8,
   * from spend()). A total exactly equal to --max-wait is still within it.
   */
  private checkDeadline(req: HttpRequest, waitMs: number, from: BucketState['from']): void {
    if (req.deadline === undefined) return;
    const left = req.deadline - this.opts.clock.now();
    if (waitMs < left) return;
    const budget = this.opts.maxWaitMs - this.waitedMs;
    if (waitMs > budget && budget < left) return;
    const secs = Math.ceil(waitMs / 1000);
    throw new DeadlineError(
      from === 'shared'
        ? `a rate-limit window an earlier cssctl process saw exhausted resets in ${secs}s, after the deadline`
        : from === 'assumed'
          ? `the service's documented rate limit is used up for ${secs}s, past the deadline`
          : `the service asks to wait ${secs}s before the next request, past the deadline`,
    );
  }

  /** Starts a wait for bucket `key`, or joins the one under way (counted and announced once). */
  private waitOnce(key: string, wait: () => Promise<void>): Promise<void> {
    let w = this.waits.get(key);
    if (!w) {
      w = wait().finally(() => this.waits.delete(key));
      this.waits.set(key, w);
    }
    return w;
  }

  private record(key: string, res: HttpResponse): void {
    const remaining = intHeader(res.headers['x-ratelimit-remaining']);
    const reset = intHeader(res.headers['x-ratelimit-reset']);
    if (remaining === undefined || reset === undefined) return;
    // A Reset past the bound is a broken header: not believed, not remembered (a 429 reports it, see below).
    if (reset * 1000 - this.opts.clock.now() > MAX_RESET_AHEAD_MS) return;
    const state: BucketState = {
      limit: intHeader(res.headers['x-ratelimit-limit']),
      // Requests still in flight may not be counted in this answer yet: they are taken from what is left.
      remaining: res.status === 429 ? 0 : remaining - this.inFlight.get(key)!,
      resetAt: reset * 1000,
      from: 'answer',
    };
    this.buckets.set(key, state);
    // Only a window the service itself says is spent is remembered for the next cssctl process: what this
    // process still has in flight may already be counted in the answer.
    if (res.status === 429 || remaining <= 0) this.windows.shared?.save(key, state.resetAt);
  }

  private waitAfter429(res: HttpResponse): number {
    const now = this.opts.clock.now();
    const reset = intHeader(res.headers['x-ratelimit-reset']);
    const retryAfter = parseRetryAfter(res.headers['retry-after'], now);
    for (const [name, at] of [
      ['X-RateLimit-Reset', reset === undefined ? undefined : reset * 1000],
      ['Retry-After', retryAfter],
    ] as const) {
      if (at !== undefined && at - now > MAX_RESET_AHEAD_MS) {
        const raw = res.headers[name.toLowerCase()] ?? '';
        throw new CliError(
          `the service answered HTTP 429 with an unusable ${name} (${clip(raw)}: ${describeAhead(at - now)} away, more than a day); not waiting on it`,
          { hint: 'try again later; if it persists, the service is sending a broken rate-limit header' },
        );
      }
    }
    let until: number | undefined;
    if (reset !== undefined) until = reset * 1000;
    if (retryAfter !== undefined) until = Math.max(until ?? 0, retryAfter);
    if (until === undefined) until = now + 60_000;
    // A Reset already in the past (clock skew) must not turn into a tight loop of 429s.
    const waitMs = Math.max(until - now, 1000);
    return waitMs + this.jitter();
  }

  private jitter(maxMs = 1000): number {
    return Math.floor(this.opts.clock.random() * maxMs);
  }

  private async spend(
    waitMs: number,
    reason: 'limit-reached' | '429',
    url: string,
    signal?: AbortSignal,
    from: BucketState['from'] = 'answer',
  ): Promise<void> {
    if (this.waitedMs + waitMs > this.opts.maxWaitMs) {
      const secs = Math.ceil(waitMs / 1000);
      const maxSecs = Number((this.opts.maxWaitMs / 1000).toFixed(3));
      const max = `--max-wait ${maxSecs}s`;
      const source =
        from === 'shared'
          ? `a rate-limit window an earlier cssctl process saw exhausted (ratelimit-state.json) resets in ${secs}s`
          : from === 'assumed'
            ? `the service's documented limit is used up for ${secs}s`
            : `the service asks to wait ${secs}s`;
      // Say which passed the limit: this wait alone, or the running total of this command's waits.
      throw new RateLimitError(
        waitMs > this.opts.maxWaitMs || this.waitedMs === 0
          ? `rate limited: ${source}, past ${max}`
          : `rate limited: ${source}, which would bring this command's waiting to ${Math.ceil((this.waitedMs + waitMs) / 1000)}s in all, past ${max}`,
        // An assistant cannot pass --max-wait: it is told when to call again, and the person who set the
        // server up which setting waits longer.
        `rate limited: the service's limit allows the next request in ${secs}s, longer than this server waits in one call (${maxSecs}s in all, cssctl mcp --max-wait); call again in ${secs}s`,
      );
    }
    this.opts.onWait?.({ waitMs, reason, url });
    this.waitedMs += waitMs;
    await this.opts.clock.sleep(waitMs, signal);
  }
}

/** An X-RateLimit-* value as a whole number; undefined when absent or not a finite number. */
export function intHeader(v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v.trim());
  return Number.isFinite(n) && v.trim() !== '' ? Math.floor(n) : undefined;
}

function clip(v: string): string {
  const t = v.trim();
  return t.length > 40 ? `${t.slice(0, 40)}…` : t;
}

function describeAhead(ms: number): string {
  const days = ms / MAX_RESET_AHEAD_MS;
  return days >= 365 * 2
    ? `${Math.round(days / 365).toLocaleString('en-US')} years`
    : `${Math.round(days)} days`;
}

/** Retry-After is either delta-seconds or an HTTP date; returns the epoch ms it points at. */
export function parseRetryAfter(v: string | undefined, now: number): number | undefined {
  if (!v) return undefined;
  const s = v.trim();
  if (/^\d+$/.test(s)) return now + Number(s) * 1000;
  const t = Date.parse(s);
  return Number.isNaN(t) ? undefined : t;
}
