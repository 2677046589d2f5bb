// The progress line of a read of many pages (cli-contract.md §9): on a terminal's stderr only — never with
// --quiet, CI=true, stderr not a terminal, or a terminal under 20 columns — one line updated in place with
// the items read of the total, the rate and the time left; a rate-limit wait shows there as a countdown.
// Anything else written to stderr clears it first (IO.writeErr); it is gone when the command ends.
import type { ChalkInstance } from 'chalk';

/**
 * How a read of many pages says how far it got, and a rate-limit wait how long it waits: the terminal's progress
 * line (ProgressLine, below), or a front end's own report (the MCP server's notifications/progress), which it
 * sets as its IO's `progress` before the verb runs.
 */
export interface Progress {
  /** A new read (one paginator): its own label, count and rate. */
  begin(label: string, startRead: number): void;
  /** `read` items of `total` (undefined when the service does not say). */
  update(read: number, total: number | undefined): void;
  /** A rate-limit wait of `ms`. */
  wait(ms: number): void;
  /** Whether a read is under way (a rate-limit wait is then reported here). */
  readonly active: boolean;
  /** Takes the line off the screen before another message (a report that draws nothing does nothing). */
  clear(): void;
  /** The read is over. */
  end(): void;
}

/** What a progress line needs of the IO that shows it (src/core/io.ts; kept apart so that io.ts alone imports). */
export interface ProgressTerminal {
  readonly stderr: { write(text: string): unknown; columns?: number };
  readonly spinnersEnabled: boolean;
  readonly errColor: ChalkInstance;
  progress?: Progress;
}

/** Redraws at most this often (a countdown redraws each second). */
const REDRAW_MS = 100;
/** A read that ends sooner than this never shows a line (it would only flicker). */
const SHOW_AFTER_MS = 250;

export interface ProgressClock {
  now(): number;
  setInterval(fn: () => void, ms: number): { unref?(): void } | number;
  clearInterval(handle: unknown): void;
}

const realClock: ProgressClock = {
  now: () => performance.now(),
  setInterval: (fn, ms) => setInterval(fn, ms),
  clearInterval: (h) => clearInterval(h as NodeJS.Timeout),
};

/** Whether this IO's stderr may show a progress line. */
export function progressAllowed(io: ProgressTerminal): boolean {
  const cols = (io.stderr as { columns?: number }).columns ?? 0;
  return io.spinnersEnabled && cols >= 20;
}

export class ProgressLine implements Progress {
  private label = 'items';
  private read = 0;
  private total?: number;
  /** When the current read started, and how far it had got then (a resumed read starts past 0). */
  private startedAt?: number;
  private startRead = 0;
  private lastDraw = -Infinity;
  private shown = false;
  private waitUntil?: number;
  private timer?: unknown;

  constructor(
    private readonly io: ProgressTerminal,
    private readonly clock: ProgressClock = realClock,
  ) {}

  /** A new read (one paginator): its own label, count and rate. */
  begin(label: string, startRead: number): void {
    this.label = label;
    this.startedAt = this.clock.now();
    this.startRead = startRead;
    this.read = startRead;
    this.total = undefined;
    this.endWait();
  }

  /** `read` items of `total` (undefined when the service does not say). */
  update(read: number, total: number | undefined): void {
    this.read = read;
    this.total = total;
    this.endWait();
    this.draw(false);
  }

  /** A rate-limit wait of `ms`: a countdown on the line, redrawn each second. */
  wait(ms: number): void {
    this.waitUntil = this.clock.now() + ms;
    this.stopTimer();
    const t = this.clock.setInterval(() => this.draw(true), 1000);
    if (typeof t === 'object') t.unref?.();
    this.timer = t;
    this.draw(true);
  }

  /** Whether a line is on the screen or a read is under way (a rate-limit wait is then shown here). */
  get active(): boolean {
    return this.startedAt !== undefined;
  }

  /** Takes the line off the screen (before another message, or at the end); the next update redraws it. */
  clear(): void {
    if (!this.shown) return;
    this.io.stderr.write('\r\u001b[K');
    this.shown = false;
  }

  /** The read is over: the line goes. */
  end(): void {
    this.endWait();
    this.clear();
    this.startedAt = undefined;
  }

  /** The text of the line (without the terminal controls), for tests. */
  text(): string {
    const fmt = (n: number) => n.toLocaleString('en-US');
    const now = this.clock.now();
    let line = `${this.label}: ${fmt(this.read)}`;
    if (this.total !== undefined) {
      line += ` of ${fmt(this.total)}`;
      if (this.total > 0) line += ` (${Math.min(100, Math.floor((this.read / this.total) * 100))}%)`;
    }
    if (this.waitUntil !== undefined) {
      const left = Math.max(0, Math.ceil((this.waitUntil - now) / 1000));
      return `${line} · rate limited, resuming in ${left}s`;
    }
    const secs = (now - (this.startedAt ?? now)) / 1000;
    const done = this.read - this.startRead;
    if (secs > 0 && done > 0) {
      const rate = done / secs;
      line += ` · ${fmt(Math.round(rate))}/s`;
      if (this.total !== undefined && this.total > this.read)
        line += ` · ${duration((this.total - this.read) / rate)} left`;
    }
    return line;
  }

  private draw(force: boolean): void {
    if (this.startedAt === undefined) return;
    const now = this.clock.now();
    if (!force && now - this.lastDraw < REDRAW_MS) return;
    if (!this.shown && now - this.startedAt < SHOW_AFTER_MS && this.waitUntil === undefined) return;
    this.lastDraw = now;
    const cols = (this.io.stderr as { columns?: number }).columns ?? 80;
    let text = this.text();
    if (text.length > cols - 1) text = `${text.slice(0, cols - 2)}…`;
    this.io.stderr.write(`\r${this.io.errColor.dim(text)}\u001b[K`);
    this.shown = true;
  }

  private endWait(): void {
    this.waitUntil = undefined;
    this.stopTimer();
  }

  private stopTimer(): void {
    if (this.timer !== undefined) this.clock.clearInterval(this.timer);
    this.timer = undefined;
  }
}

/** `75s`, `4m 10s`, `1h 2m`. */
function duration(seconds: number): string {
  const s = Math.max(1, Math.round(seconds));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${s % 60}s`;
  return `${Math.floor(s / 3600)}h ${Math.floor((s % 3600) / 60)}m`;
}

/**
 * The progress line of this IO, made on first use; undefined when the terminal may not show one — or the front
 * end's own report, when it gave one. A paginator reports through it; the rate limiter shows its waits on it
 * while a read is under way.
 */
export function progressOf(io: ProgressTerminal): Progress | undefined {
  // A front end that reports progress its own way set it up front; it is not a terminal's line to check.
  if (io.progress !== undefined && !(io.progress instanceof ProgressLine)) return io.progress;
  if (!progressAllowed(io)) return undefined;
  io.progress ??= new ProgressLine(io);
  return io.progress;
}
