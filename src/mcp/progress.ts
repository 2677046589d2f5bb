// notifications/progress for a tool call whose request carried a progressToken (cli-contract.md §13): a read of
// many pages says how many findings it has read of how many, a wait says how the scan stands, and a rate-limit
// wait says how long it waits. It is the call's IO's `progress` (src/core/progress.ts), so the paginators and
// the rate limiter report to it exactly as they report to a terminal's progress line.
import type { Progress } from '../core/progress.js';

export interface ProgressParams {
  progress: number;
  total?: number;
  message?: string;
}

/** At most one notification per this many ms while a read goes on (its last page is always told). */
const MIN_INTERVAL_MS = 100;

export class CallProgress implements Progress {
  /** The last value sent: the protocol wants each one higher than the one before. */
  private last = 0;
  /** Items read by the reads already over (a summary reads one severity after the other). */
  private done = 0;
  private start = 0;
  private read = 0;
  private total?: number;
  private label = 'items';
  private reading = false;
  private lastAt = -Infinity;

  constructor(
    private readonly notify: (p: ProgressParams) => void,
    private readonly now: () => number = () => performance.now(),
    private readonly tickMs = 5000,
  ) {}

  begin(label: string, startRead: number): void {
    this.reading = true;
    this.label = label;
    this.start = startRead;
    this.read = startRead;
    this.total = undefined;
  }

  update(read: number, total: number | undefined): void {
    this.read = read;
    this.total = total;
    const value = this.done + (read - this.start);
    const whole = total === undefined ? undefined : this.done + Math.max(0, total - this.start);
    const last = total !== undefined && read >= total;
    if (!last && this.now() - this.lastAt < MIN_INTERVAL_MS) return;
    const of = total === undefined ? '' : ` of ${total.toLocaleString('en-US')}`;
    this.emit(value, whole, `${this.label}: ${read.toLocaleString('en-US')}${of} read`);
  }

  /**
   * A rate-limit wait: said at once, and again every tickMs while it lasts (a wait is never a silence of more
   * than 10 s, also in a call that reads one page).
   */
  wait(ms: number): void {
    this.stopTicks();
    const until = this.now() + ms;
    const say = () =>
      this.emit(
        this.last + 1,
        undefined,
        `rate limited; resuming in ${Math.max(1, Math.ceil((until - this.now()) / 1000))}s`,
      );
    say();
    if (ms <= this.tickMs) return;
    const timer = setInterval(
      () => (this.now() >= until - this.tickMs / 2 ? this.stopTicks() : say()),
      this.tickMs,
    );
    timer.unref?.();
    this.ticks = timer;
  }

  private ticks?: ReturnType<typeof setInterval>;

  private stopTicks(): void {
    if (this.ticks !== undefined) clearInterval(this.ticks);
    this.ticks = undefined;
  }

  /** Always: every rate-limit wait of the call is told here (the stack asks only an active report). */
  get active(): boolean {
    return true;
  }

  clear(): void {}

  /** The call is over (or one read of it): no more ticks. */
  end(): void {
    this.stopTicks();
    if (!this.reading) return;
    this.done += Math.max(0, this.read - this.start);
    this.reading = false;
  }

  /** How a wait stands (`Scan scn_1: running (12s)`): a step of its own. */
  message(text: string): void {
    this.emit(this.last + 1, undefined, text);
  }

  private emit(value: number, total: number | undefined, message: string): void {
    if (value <= this.last) return;
    this.last = value;
    this.lastAt = this.now();
    this.notify({ progress: value, ...(total !== undefined && total >= value ? { total } : {}), message });
  }
}
