// Requests of one command held by the same rate-limit window wait together (RateLimiter's waitOnce): one wait,
// one notice, counted once against --max-wait. FakeClock cannot show it: its sleep moves time on at once, so a
// second request already finds the window reset. Here a wait lasts until the test ends it, as a real one lasts
// while the other requests arrive (issue 35: "the rate-limit wait no longer joined" survived every unit test).
import { describe, expect, it } from 'vitest';
import { RateLimiter } from '../../src/core/http/ratelimit.js';
import { RateLimitError } from '../../src/core/errors.js';
import type { Clock } from '../../src/core/clock.js';
import { req, rl, scripted } from '../helpers/fake-send.js';
import { FakeClock } from '../helpers/fake-clock.js';

/** A clock whose sleeps last until end() moves time past the longest one, as real waits do. */
class HeldClock extends FakeClock implements Clock {
  private readonly held: { until: number; resolve: () => void }[] = [];
  override async sleep(ms: number): Promise<void> {
    this.sleeps.push(ms);
    await new Promise<void>((resolve) => this.held.push({ until: this.t + ms, resolve }));
  }
  /** Ends every wait under way: time moves to the end of the longest. */
  end(): void {
    const waits = this.held.splice(0);
    this.t = Math.max(this.t, ...waits.map((w) => w.until));
    for (const w of waits) w.resolve();
  }
  get waiting(): number {
    return this.held.length;
  }
}

/** Lets every promise chain that can move, move. */
const settle = () => new Promise<void>((r) => setImmediate(r));

function setup(maxWaitSec: number) {
  const clock = new HeldClock();
  clock.rand = 0;
  const notices: number[] = [];
  const limiter = new RateLimiter({
    clock,
    maxWaitMs: maxWaitSec * 1000,
    onWait: ({ waitMs }) => notices.push(waitMs),
  });
  return { clock, limiter, notices };
}

describe('requests held by one window wait together', () => {
  it('an exhausted window: three requests, one wait, one notice, counted once against --max-wait', async () => {
    // Two 40 s waits would pass --max-wait 45 s; one does not.
    const { clock, limiter, notices } = setup(45);
    const reset = Math.floor(clock.now() / 1000) + 40;
    const t = scripted(clock, [
      { status: 200, headers: rl(0, reset) },
      { status: 200, headers: rl(119, reset + 60) },
      { status: 200, headers: rl(118, reset + 60) },
      { status: 200, headers: rl(117, reset + 60) },
    ]);
    const send = limiter.layer(t.send);
    await send(req());
    const held = Promise.allSettled([send(req()), send(req()), send(req())]);
    await settle();
    expect(clock.waiting).toBe(1);
    expect(t.sent).toHaveLength(1);
    clock.end();
    const results = await held;
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled']);
    expect(notices).toHaveLength(1);
    expect(clock.sleeps).toHaveLength(1);
    for (const s of t.sent.slice(1)) expect(s.at).toBeGreaterThanOrEqual(reset * 1000);
  });

  it('a 429 answered to two requests in flight: they retry after one wait, counted once', async () => {
    const { clock, limiter, notices } = setup(45);
    const reset = Math.floor(clock.now() / 1000) + 30;
    // Both are sent before either answer arrives (an export reads ahead); each gets a 429.
    const answers: ((status: number) => void)[] = [];
    const sent: number[] = [];
    const send = limiter.layer(async (r) => {
      sent.push(clock.now());
      const status = await new Promise<number>((resolve) => answers.push(resolve));
      return {
        status,
        headers: status === 429 ? rl(0, reset) : rl(100, reset + 60),
        body: r.url,
      };
    });
    // A first answer tells what is left (plenty), so both may be in flight at once.
    const first = send(req());
    await settle();
    answers.splice(0).forEach((answer) => answer(200));
    await first;
    const both = Promise.allSettled([send(req()), send(req())]);
    await settle();
    expect(answers).toHaveLength(2);
    answers.splice(0).forEach((answer) => answer(429));
    await settle();
    // Two 30 s waits would pass --max-wait 45 s.
    expect(clock.waiting).toBe(1);
    clock.end();
    await settle();
    expect(answers).toHaveLength(2);
    answers.splice(0).forEach((answer) => answer(200));
    const results = await both;
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled']);
    expect(notices).toHaveLength(1);
    expect(sent).toHaveLength(5);
    expect(sent.slice(3).every((at) => at >= reset * 1000)).toBe(true);
  });

  it('a wait that has ended is not joined: the next exhausted window is waited for again', async () => {
    const { clock, limiter, notices } = setup(300);
    const first = Math.floor(clock.now() / 1000) + 20;
    const t = scripted(clock, [
      { status: 200, headers: rl(0, first) },
      { status: 200, headers: rl(0, first + 60) },
      { status: 200, headers: rl(119, first + 120) },
    ]);
    const send = limiter.layer(t.send);
    await send(req());
    const second = send(req());
    await settle();
    clock.end();
    await second;
    const third = send(req());
    await settle();
    expect(clock.waiting).toBe(1);
    clock.end();
    await third;
    expect(notices).toHaveLength(2);
    expect(t.sent[2]!.at).toBeGreaterThanOrEqual((first + 60) * 1000);
  });

  it('joined waits past --max-wait: each request fails with the one exit-8 error, none is sent', async () => {
    const { clock, limiter } = setup(10);
    const reset = Math.floor(clock.now() / 1000) + 40;
    const t = scripted(clock, [{ status: 200, headers: rl(0, reset) }]);
    const send = limiter.layer(t.send);
    await send(req());
    const results = await Promise.allSettled([send(req()), send(req())]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    for (const r of results) expect((r as PromiseRejectedResult).reason).toBeInstanceOf(RateLimitError);
    expect(t.sent).toHaveLength(1);
    expect(clock.sleeps).toEqual([]);
  });
});
