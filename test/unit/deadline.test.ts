// A request deadline (`--wait-timeout`, issue 20 #1) through the layers, on a fake clock: retry waits and
// rate-limit waits that would end at or after it are not begun (DeadlineError), --max-wait still decides when
// its budget runs out first, the session's refresh carries it, and the poll of `scans wait` ends on it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pollScan, waitAndReport } from '../../src/commands/scans/wait.js';
import { Credentials } from '../../src/core/credentials.js';
import {
  DeadlineError,
  ExitError,
  InterruptedError,
  NetworkError,
  RateLimitError,
  exitCodeFor,
} from '../../src/core/errors.js';
import { ApiClient } from '../../src/core/http/client.js';
import { RateLimiter } from '../../src/core/http/ratelimit.js';
import { withRetry } from '../../src/core/http/retry.js';
import { Session, type TokenResponse } from '../../src/core/http/session.js';
import type { HttpRequest, HttpResponse, Send } from '../../src/core/http/types.js';
import { withFileLock } from '../../src/core/lock.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { FakeContext } from '../helpers/fake-context.js';
import { outcomeError, render } from '../../src/cli/render.js';
import { req, rl, scripted, type Reply } from '../helpers/fake-send.js';

async function failure(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  throw new Error('expected a failure');
}

describe('retry layer with a deadline', () => {
  it('retries while the retry comes before the deadline', async () => {
    const clock = new FakeClock();
    clock.rand = 0;
    const t = scripted(clock, [{ status: 503 }, { status: 200 }]);
    const res = await withRetry(t.send, { clock })(req({ deadline: clock.now() + 2_001 }));
    expect(res.status).toBe(200);
    expect(clock.sleeps).toEqual([2000]);
  });

  it('a retry that would come at or after the deadline is a DeadlineError at once, not a wait', async () => {
    const clock = new FakeClock();
    clock.rand = 0;
    const t = scripted(clock, [{ status: 503 }]);
    const err = await failure(withRetry(t.send, { clock })(req({ deadline: clock.now() + 2_000 })));
    expect(err).toBeInstanceOf(DeadlineError);
    expect((err as Error).message).toBe(
      'the service answered HTTP 503; a retry in 2.0s would come after the deadline',
    );
    expect(clock.sleeps).toEqual([]);
    expect(t.sent).toHaveLength(1);
  });

  it('the second retry is checked too, and a timed-out attempt keeps its cause', async () => {
    const clock = new FakeClock();
    clock.rand = 0;
    const timeout = new NetworkError('request to x timed out after 30s', 'timeout');
    const t = scripted(clock, [timeout, timeout]);
    const err = await failure(withRetry(t.send, { clock })(req({ deadline: clock.now() + 5_000 })));
    expect(err).toBeInstanceOf(DeadlineError);
    expect((err as Error).cause).toBe(timeout);
    expect(clock.sleeps).toEqual([2000]);
  });

  it('a DeadlineError from below is never retried', async () => {
    const clock = new FakeClock();
    const t = scripted(clock, [new DeadlineError('no answer from x before the deadline')]);
    const err = await failure(withRetry(t.send, { clock })(req({ deadline: clock.now() + 60_000 })));
    expect(err).toBeInstanceOf(DeadlineError);
    expect(t.sent).toHaveLength(1);
  });
});

function limiter(maxWaitSec: number) {
  const clock = new FakeClock();
  clock.rand = 0; // no jitter: waits are exactly what the answer asks
  const waits: number[] = [];
  const rateLimiter = new RateLimiter({
    clock,
    maxWaitMs: maxWaitSec * 1000,
    onWait: ({ waitMs }) => waits.push(waitMs),
  });
  return { clock, waits, layer: (send: Send) => rateLimiter.layer(send) };
}

/** A 429 asking to wait `sec` seconds (Retry-After and Reset agree; the fake clock is on a whole second). */
const throttled = (clock: FakeClock, sec: number) => (): Partial<HttpResponse> => ({
  status: 429,
  headers: { ...rl(0, Math.floor(clock.now() / 1000) + sec), 'retry-after': String(sec) },
});

describe('rate-limit layer with a deadline', () => {
  it('429 with Retry-After 25 and 2 s left: DeadlineError at once, nothing waited, nothing sent early', async () => {
    const { clock, waits, layer } = limiter(300);
    const t = scripted(clock, [throttled(clock, 25)]);
    const err = await failure(layer(t.send)(req({ deadline: clock.now() + 2_000 })));
    expect(err).toBeInstanceOf(DeadlineError);
    expect((err as Error).message).toBe(
      'the service asks to wait 25s before the next request, past the deadline',
    );
    expect(clock.sleeps).toEqual([]);
    expect(waits).toEqual([]);
    expect(t.sent).toHaveLength(1);
  });

  it('a wait that ends before the deadline is waited, and the request sent after it', async () => {
    const { clock, layer } = limiter(300);
    const t = scripted(clock, [throttled(clock, 5), { status: 200 }]);
    const res = await layer(t.send)(req({ deadline: clock.now() + 5_001 }));
    expect(res.status).toBe(200);
    expect(clock.sleeps).toEqual([5000]);
  });

  it('a wait that ends exactly at the deadline leaves no time for the request: DeadlineError', async () => {
    const { clock, layer } = limiter(300);
    const t = scripted(clock, [throttled(clock, 5)]);
    expect(await failure(layer(t.send)(req({ deadline: clock.now() + 5_000 })))).toBeInstanceOf(
      DeadlineError,
    );
    expect(clock.sleeps).toEqual([]);
  });

  it('a window spent before the request (Remaining 0) is checked against the deadline as well', async () => {
    const { clock, layer } = limiter(300);
    const reset = Math.floor(clock.now() / 1000) + 40;
    const t = scripted(clock, [{ status: 200, headers: rl(0, reset) }]);
    const send = layer(t.send);
    await send(req());
    const err = await failure(send(req({ deadline: clock.now() + 10_000 })));
    expect(err).toBeInstanceOf(DeadlineError);
    expect(clock.sleeps).toEqual([]);
    expect(t.sent).toHaveLength(1);
  });

  it('a window an earlier cssctl process saw spent is named as such when it passes the deadline', async () => {
    const clock = new FakeClock();
    clock.rand = 0;
    const key = 'http://127.0.0.1:1 acme all';
    const rateLimiter = new RateLimiter({
      clock,
      maxWaitMs: 300_000,
      shared: { load: () => ({ [key]: clock.now() + 30_000 }), save: () => undefined },
    });
    const t = scripted(clock, []);
    const err = await failure(rateLimiter.layer(t.send)(req({ deadline: clock.now() + 5_000 })));
    expect(err).toBeInstanceOf(DeadlineError);
    expect((err as Error).message).toBe(
      'a rate-limit window an earlier cssctl process saw exhausted resets in 30s, after the deadline',
    );
    expect(clock.sleeps).toEqual([]);
  });

  it('--max-wait decides (exit 8) when its budget runs out before the deadline', async () => {
    const { clock, layer } = limiter(10);
    const t = scripted(clock, [throttled(clock, 25)]);
    const err = await failure(layer(t.send)(req({ deadline: clock.now() + 20_000 })));
    expect(err).toBeInstanceOf(RateLimitError);
    expect(exitCodeFor(err)).toBe(8);
  });

  it('the deadline decides when it comes first, even though the wait would also pass --max-wait', async () => {
    const { clock, layer } = limiter(10);
    const t = scripted(clock, [throttled(clock, 25)]);
    expect(await failure(layer(t.send)(req({ deadline: clock.now() + 3_000 })))).toBeInstanceOf(
      DeadlineError,
    );
  });

  it('without a deadline nothing changes: the wait is taken', async () => {
    const { clock, layer } = limiter(300);
    const t = scripted(clock, [throttled(clock, 25), { status: 200 }]);
    expect((await layer(t.send)(req())).status).toBe(200);
    expect(clock.sleeps).toEqual([25_000]);
  });
});

describe('--max-wait boundary (issue 20 #9): "as long as the total wait stays within --max-wait"', () => {
  it('one wait exactly equal to the budget is taken', async () => {
    const { clock, waits, layer } = limiter(10);
    const t = scripted(clock, [throttled(clock, 10), { status: 200 }]);
    expect((await layer(t.send)(req())).status).toBe(200);
    expect(waits).toEqual([10_000]);
  });

  it('waits that add up to exactly the budget are taken; one millisecond more is exit 8', async () => {
    const ok = limiter(20);
    const t = scripted(ok.clock, [throttled(ok.clock, 10), throttled(ok.clock, 10), { status: 200 }]);
    expect((await ok.layer(t.send)(req())).status).toBe(200);
    expect(ok.clock.totalSlept).toBe(20_000);

    const over = limiter(19.999);
    const t2 = scripted(over.clock, [throttled(over.clock, 10), throttled(over.clock, 10)]);
    const err = await failure(over.layer(t2.send)(req()));
    expect(err).toBeInstanceOf(RateLimitError);
    expect(over.clock.totalSlept).toBe(10_000);
  });
});

describe('the session refresh under a deadline', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'cssctl-deadline-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('a refresh needed by a request with a deadline is sent with the same deadline', async () => {
    const clock = new FakeClock();
    const credentials = new Credentials('file', dir, {});
    await credentials.save('default', {
      access_token: 'a0',
      refresh_token: 'r0',
      expires_at: clock.now() + 10_000,
    });
    const seen: (number | undefined)[] = [];
    const session = new Session({
      profile: 'default',
      credentials,
      clock,
      refresh: async (_rt: string, deadline?: number): Promise<TokenResponse> => {
        seen.push(deadline);
        return { access_token: 'a1', refresh_token: 'r1', expires_in: 3600 };
      },
      lock: (fn) => withFileLock(dir, 'refresh-default', fn),
    });
    const t = scripted(clock, [{ status: 200, body: '{}' }]);
    const api = new ApiClient({
      baseUrl: 'http://127.0.0.1:8787',
      workspace: 'acme',
      send: t.send,
      session: async () => session,
    });
    const deadline = clock.now() + 3_000;
    await api.request({ path: '/scans/scn_1', deadline });
    expect(seen).toEqual([deadline]);
    expect(t.sent[0]!.req.deadline).toBe(deadline);
    expect(t.sent[0]!.req.headers.authorization).toBe('Bearer a1');
  });
});

/** A Context with what pollScan and waitAndReport use: no terminal, a fake clock, a scripted service. */
function waitWorld(
  replies: Reply[] | ((clock: FakeClock) => Reply[]),
  argv = ['scans', 'wait', 'scn_1', '--wait-timeout', '10'],
) {
  const ctx = new FakeContext({ argv, env: { CSSCTL_POLL_BASE_MS: '2000' } });
  const clock = ctx.clock;
  const t = scripted(clock, typeof replies === 'function' ? replies(clock) : replies);
  const controller = { abort: () => ctx.abort() };
  const client = new ApiClient({
    baseUrl: 'http://127.0.0.1:8787',
    workspace: 'acme',
    send: t.send,
    session: async () => ({ accessToken: async () => 'tok', fromEnv: true }) as unknown as Session,
  });
  return { clock, t, ctx, client, controller };
}

const running: Reply = () => ({ status: 200, body: '{"scan_id":"scn_1","status":"running"}' });
/** What the transport does with a request that gets no answer before its deadline. */
const hangs =
  (clock: FakeClock) =>
  (r: HttpRequest): Error => {
    clock.t = Math.max(clock.t, r.deadline ?? Infinity);
    return new DeadlineError('no answer from 127.0.0.1:8787 before the deadline');
  };

describe('the poll of scans wait', () => {
  it('every poll carries the deadline started + --wait-timeout', async () => {
    const { clock, t, ctx, client } = waitWorld([running, running, running, running]);
    const started = clock.now();
    const out = await pollScan(ctx, client, 'scn_1', 10_000);
    expect(out.final).toBe(false);
    expect(t.sent.map((s) => s.req.deadline)).toEqual(t.sent.map(() => started + 10_000));
    // Polls at 0, 2, 5 and 9.5 s; no poll at the deadline itself, where it would have no time left.
    expect(t.sent.map((s) => s.at - started)).toEqual([0, 2000, 5000, 9500]);
    expect(clock.now() - started).toBe(10_000);
  });

  it('without --wait-timeout, no deadline is sent', async () => {
    const { t, ctx, client } = waitWorld([
      running,
      { status: 200, body: '{"scan_id":"scn_1","status":"completed"}' },
    ]);
    const out = await pollScan(ctx, client, 'scn_1', undefined);
    expect(out.final).toBe(true);
    expect(t.sent.every((s) => s.req.deadline === undefined)).toBe(true);
  });

  it('a poll cut at the deadline ends the wait with the last answer and why', async () => {
    const hung = waitWorld((c) => [running, hangs(c)]);
    const started = hung.clock.now();
    const cut = await pollScan(hung.ctx, hung.client, 'scn_1', 10_000);
    expect(cut).toMatchObject({
      final: false,
      scan: { status: 'running' },
      cut: 'no answer from 127.0.0.1:8787 before the deadline',
    });
    expect(cut.elapsedMs).toBe(10_000);
    expect(hung.clock.now() - started).toBe(10_000);
    expect(hung.t.sent).toHaveLength(2);
  });

  it('waitAndReport: exit 9 naming why, with the resume command; no answer at all says so', async () => {
    const w = waitWorld((c) => [hangs(c)]);
    const result = await waitAndReport(w.ctx, w.client, 'scn_1', { waitTimeout: 10 }, 'table');
    const err = outcomeError(await render(w.ctx, result));
    expect(err).toBeInstanceOf(ExitError);
    expect(exitCodeFor(err)).toBe(9);
    expect((err as Error).message).toBe(
      'no answer about scan scn_1 after 10s (--wait-timeout: no answer from 127.0.0.1:8787 before the deadline); resume with: cssctl scans wait scn_1 --wait-timeout 10',
    );
  });

  it('Ctrl-C during a poll is exit 130 with the resume command, deadline or not', async () => {
    const w = waitWorld([
      running,
      () => {
        w.controller.abort();
        return new InterruptedError();
      },
    ]);
    const err = await failure(pollScan(w.ctx, w.client, 'scn_1', 10_000));
    expect(err).toBeInstanceOf(InterruptedError);
    expect((err as Error).message).toBe(
      'interrupted; resume with: cssctl scans wait scn_1 --wait-timeout 10',
    );
  });
});
