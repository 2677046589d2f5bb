import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RateLimiter, RateWindows, bucketFor, windowsOf } from '../../src/core/http/ratelimit.js';
import { CliError, RateLimitError, exitCodeFor } from '../../src/core/errors.js';
import { fileExhaustedWindows } from '../../src/core/ratelimit-state.js';
import type { HttpResponse, Send } from '../../src/core/http/types.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { req, rl, scripted } from '../helpers/fake-send.js';

/** ratelimit-state.json in memory: the windows a process leaves for the next one. */
function memoryShare(initial: Record<string, number> = {}) {
  const data = { ...initial };
  return { data, load: () => ({ ...data }), save: (k: string, v: number) => void (data[k] = v) };
}

function setup(maxWaitSec = 300) {
  const clock = new FakeClock();
  clock.rand = 0; // no jitter: any early send shows
  const waits: number[] = [];
  const limiter = new RateLimiter({
    clock,
    maxWaitMs: maxWaitSec * 1000,
    onWait: ({ waitMs }) => waits.push(waitMs),
  });
  return { clock, limiter, waits };
}

describe('rate limit layer', () => {
  it('on 429 waits until X-RateLimit-Reset (never early, at most 1 s of jitter) and then retries', async () => {
    const { clock, limiter, waits } = setup();
    const reset = Math.floor(clock.now() / 1000) + 17;
    const t = scripted(clock, [
      { status: 429, headers: rl(0, reset) },
      { status: 200, headers: rl(119, reset + 60) },
    ]);
    const res = await limiter.layer(t.send)(req());
    expect(res.status).toBe(200);
    expect(t.sent).toHaveLength(2);
    expect(t.sent[1]!.at).toBeGreaterThanOrEqual(reset * 1000);
    expect(t.sent[1]!.at).toBeLessThan(reset * 1000 + 1000);
    expect(waits).toHaveLength(1);
  });

  it('adds at most one second of jitter', async () => {
    const { clock, limiter } = setup();
    clock.rand = 0.999;
    const reset = Math.floor(clock.now() / 1000) + 5;
    const t = scripted(clock, [{ status: 429, headers: rl(0, reset) }, { status: 200 }]);
    await limiter.layer(t.send)(req());
    expect(t.sent[1]!.at - reset * 1000).toBeGreaterThan(900);
    expect(t.sent[1]!.at - reset * 1000).toBeLessThan(1000);
  });

  it('reads Retry-After when there is no Reset, and the later of the two when both are given', async () => {
    const { clock, limiter } = setup();
    const now = clock.now();
    const t = scripted(clock, [
      { status: 429, headers: { 'retry-after': '7' } },
      { status: 429, headers: { ...rl(0, Math.floor(now / 1000) + 9), 'retry-after': '30' } },
      { status: 200 },
    ]);
    await limiter.layer(t.send)(req());
    expect(t.sent[1]!.at - t.sent[0]!.at).toBeGreaterThanOrEqual(7000);
    expect(t.sent[2]!.at - t.sent[1]!.at).toBeGreaterThanOrEqual(30_000);
  });

  it('waits 60 s on a 429 that names no time', async () => {
    const { clock, limiter } = setup();
    const t = scripted(clock, [{ status: 429 }, { status: 200 }]);
    await limiter.layer(t.send)(req());
    expect(t.sent[1]!.at - t.sent[0]!.at).toBeGreaterThanOrEqual(60_000);
    expect(t.sent[1]!.at - t.sent[0]!.at).toBeLessThan(61_000);
  });

  it('after a response with Remaining 0, holds the next request until Reset', async () => {
    const { clock, limiter } = setup();
    const reset = Math.floor(clock.now() / 1000) + 42;
    const t = scripted(clock, [
      { status: 200, headers: rl(0, reset) },
      { status: 200, headers: rl(119, reset + 60) },
    ]);
    const send = limiter.layer(t.send);
    await send(req());
    expect(clock.sleeps).toEqual([]);
    await send(req());
    expect(t.sent[1]!.at).toBeGreaterThanOrEqual(reset * 1000);
  });

  it('keeps workspaces apart: an exhausted workspace does not delay another', async () => {
    const { clock, limiter } = setup();
    const reset = Math.floor(clock.now() / 1000) + 42;
    const t = scripted(clock, [
      { status: 200, headers: rl(0, reset) },
      { status: 200, headers: rl(100, reset) },
    ]);
    const send = limiter.layer(t.send);
    await send(req({ headers: { 'x-tenant-slug': 'acme' } }));
    await send(req({ headers: { 'x-tenant-slug': 'globex' } }));
    expect(clock.sleeps).toEqual([]);
  });

  it('counts POST /scans against its own limit without stalling other requests', async () => {
    const { clock, limiter } = setup();
    const reset = Math.floor(clock.now() / 1000) + 30;
    const t = scripted(clock, [
      { status: 201, headers: rl(0, reset, 10) },
      { status: 200, headers: rl(100, reset) },
      { status: 201, headers: rl(9, reset + 60, 10) },
    ]);
    const send = limiter.layer(t.send);
    await send(req({ method: 'POST', url: 'http://127.0.0.1:1/api/v1/scans' }));
    await send(req()); // GET: not held back by the scans bucket
    expect(clock.sleeps).toEqual([]);
    await send(req({ method: 'POST', url: 'http://127.0.0.1:1/api/v1/scans' }));
    expect(t.sent[2]!.at).toBeGreaterThanOrEqual(reset * 1000);
  });

  it('fails with exit 8 without waiting when the wait would pass --max-wait', async () => {
    const { clock, limiter } = setup(10);
    const reset = Math.floor(clock.now() / 1000) + 45;
    const t = scripted(clock, [{ status: 429, headers: rl(0, reset) }]);
    const err = await limiter
      .layer(t.send)(req())
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitError);
    expect(exitCodeFor(err)).toBe(8);
    expect(clock.sleeps).toEqual([]);
    expect(t.sent).toHaveLength(1);
  });

  it('bounds the total of several waits by --max-wait', async () => {
    const { clock, limiter } = setup(25);
    const r = () => ({ status: 429, headers: rl(0, Math.floor(clock.now() / 1000) + 10) });
    const t = scripted(clock, [r, r, r]); // waits of 10 s + 10 s, then the third would pass 25 s
    const err = await limiter
      .layer(t.send)(req())
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitError);
    expect(clock.totalSlept).toBeLessThanOrEqual(25_000);
    expect(t.sent.length).toBe(3);
  });

  it('treats a Reset already past (clock skew) as at least one second, not a tight loop', async () => {
    const { clock, limiter } = setup();
    const t = scripted(clock, [
      { status: 429, headers: rl(0, Math.floor(clock.now() / 1000) - 5) },
      { status: 200 },
    ]);
    await limiter.layer(t.send)(req());
    expect(clock.sleeps[0]).toBeGreaterThanOrEqual(1000);
  });

  it("works out each request's windows from the request itself: service, workspace, method and path", () => {
    const get = (url: string, tenant?: string, method = 'GET') =>
      windowsOf({ method, url, headers: tenant ? { 'x-tenant-slug': tenant } : {} });
    expect(get('http://127.0.0.1:1/api/v1/findings?limit=1', 'acme').keys).toEqual([
      'http://127.0.0.1:1 acme all',
    ]);
    // Workspaces and services each have their own limits.
    expect(get('http://127.0.0.1:1/api/v1/findings', 'other').key).not.toBe(
      get('http://127.0.0.1:1/api/v1/findings', 'acme').key,
    );
    expect(get('http://127.0.0.1:2/api/v1/findings', 'acme').key).not.toBe(
      get('http://127.0.0.1:1/api/v1/findings', 'acme').key,
    );
    // Login and refresh are limited per service, whatever the workspace.
    expect(get('http://127.0.0.1:1/api/v1/auth/login', 'acme', 'POST').key).toBe(
      get('http://127.0.0.1:1/api/v1/auth/login', undefined, 'POST').key,
    );
    // A scan creation counts against its own window and the workspace's.
    expect(get('http://127.0.0.1:1/api/v1/scans', 'acme', 'POST').keys).toEqual([
      'http://127.0.0.1:1 acme scans-create',
      'http://127.0.0.1:1 acme all',
    ]);
    expect(get('http://127.0.0.1:1/api/v1/scans', 'acme').keys).toEqual(['http://127.0.0.1:1 acme all']);
  });

  it('names the bucket of each endpoint', () => {
    expect(bucketFor('POST', '/auth/login')).toBe('login');
    expect(bucketFor('POST', '/auth/refresh')).toBe('refresh');
    expect(bucketFor('POST', '/scans')).toBe('scans-create');
    expect(bucketFor('GET', '/scans')).toBe('all');
    expect(bucketFor('GET', '/findings?severity=high')).toBe('all');
  });
});

/**
 * A service with `limit` requests a window, counting each request when it arrives and answering when the
 * test says so (`answer(i)`), so requests can be in flight together (an export keeps two).
 */
function windowedService(clock: FakeClock, limit: number) {
  let reset = Math.floor(clock.now() / 1000) + 30;
  let used = 0;
  const arrivals: { at: number; status: number }[] = [];
  const pending: ((r: HttpResponse) => void)[] = [];
  const replies: HttpResponse[] = [];
  const send: Send = (request) => {
    void request;
    if (clock.now() >= reset * 1000) {
      reset = Math.floor(clock.now() / 1000) + 30;
      used = 0;
    }
    const status = used < limit ? 200 : 429;
    if (status === 200) used++;
    arrivals.push({ at: clock.now(), status });
    replies.push({ status, headers: rl(Math.max(0, limit - used), reset, limit), body: '{}' });
    return new Promise((resolve) => pending.push(resolve));
  };
  /** Lets request i (in order of arrival) have its answer, as counted when it arrived. */
  const answer = async (i: number) => {
    while (pending.length <= i) await new Promise((r) => setImmediate(r));
    pending[i]!(replies[i]!);
    await new Promise((r) => setImmediate(r));
  };
  return { send, arrivals, answer, reset: () => reset };
}

describe('requests in flight together (an export reads ahead)', () => {
  it('each takes its share of what is left: with one left, the second of two waits for Reset', async () => {
    const { clock, limiter } = setup();
    const svc = windowedService(clock, 2);
    const send = limiter.layer(svc.send);
    const first = send(req());
    await svc.answer(0); // Remaining 1
    await first;
    const firstReset = svc.reset();
    const both = Promise.all([send(req()), send(req())]);
    await svc.answer(1);
    await svc.answer(2);
    await both;
    expect(svc.arrivals.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(svc.arrivals[2]!.at).toBeGreaterThanOrEqual(firstReset * 1000);
  });

  it('an answer that cannot yet count a request sent after it is read less what is still in flight', async () => {
    const { clock, limiter } = setup();
    const svc = windowedService(clock, 3);
    const send = limiter.layer(svc.send);
    const a = send(req());
    await svc.answer(0); // Remaining 2
    await a;
    const firstReset = svc.reset();
    const b = send(req());
    const c = send(req()); // the service now has none left, but b's answer will say 1
    await svc.answer(1);
    await b;
    const d = send(req()); // must wait for Reset: c took the last one
    await svc.answer(2);
    await c;
    await svc.answer(3);
    await d;
    expect(svc.arrivals.map((x) => x.status)).toEqual([200, 200, 200, 200]);
    expect(svc.arrivals[3]!.at).toBeGreaterThanOrEqual(firstReset * 1000);
  });
});

describe('what is left for the next process, with requests in flight', () => {
  it('only a window the service says is spent is remembered, not one this process expects to spend', async () => {
    const { clock } = setup();
    const share = memoryShare();
    const limiter = new RateLimiter({ clock, maxWaitMs: 300_000, shared: share });
    const svc = windowedService(clock, 3);
    const send = limiter.layer(svc.send);
    const a = send(req());
    await svc.answer(0); // Remaining 2
    await a;
    const b = send(req());
    const c = send(req());
    await svc.answer(1); // Remaining 1, with c in flight: this process has none left, the service may
    await b;
    expect(share.data).toEqual({});
    await svc.answer(2); // Remaining 0: spent
    await c;
    expect(Object.values(share.data)).toEqual([svc.reset() * 1000]);
  });
});

describe('two requests held by one exhausted window', () => {
  it('wait together: one notice, and the wait counts once against --max-wait', async () => {
    const { clock, limiter, waits } = setup(45);
    const reset = Math.floor(clock.now() / 1000) + 40;
    const t = scripted(clock, [
      { status: 200, headers: rl(0, reset) },
      { status: 200, headers: rl(118, reset + 60) },
      { status: 200, headers: rl(117, reset + 60) },
    ]);
    const send = limiter.layer(t.send);
    await send(req());
    // Two 40 s waits would pass --max-wait 45 s; one does not.
    await Promise.all([send(req()), send(req())]);
    expect(waits).toHaveLength(1);
    expect(t.sent[1]!.at).toBeGreaterThanOrEqual(reset * 1000);
    expect(t.sent[2]!.at).toBeGreaterThanOrEqual(reset * 1000);
  });
});

describe('exhausted windows shared between processes', () => {
  it('records a window seen with Remaining 0, and a later process waits for its Reset before sending', async () => {
    const share = memoryShare();
    const first = setup();
    const reset = Math.floor(first.clock.now() / 1000) + 20;
    const t1 = scripted(first.clock, [{ status: 200, headers: rl(0, reset) }]);
    await new RateLimiter({ clock: first.clock, maxWaitMs: 300_000, shared: share }).layer(t1.send)(req());
    expect(Object.values(share.data)).toEqual([reset * 1000]);

    const clock = new FakeClock(first.clock.now() + 5000);
    clock.rand = 0;
    const t2 = scripted(clock, [{ status: 200, headers: rl(119, reset + 60) }]);
    await new RateLimiter({ clock, maxWaitMs: 300_000, shared: share }).layer(t2.send)(req());
    expect(t2.sent[0]!.at).toBeGreaterThanOrEqual(reset * 1000);
  });

  it('ignores windows that have already reset, and other workspaces', async () => {
    const { clock } = setup();
    const share = memoryShare({
      [`http://127.0.0.1:1 acme all`]: clock.now() - 1000,
      [`http://127.0.0.1:1 globex all`]: clock.now() + 60_000,
    });
    const t = scripted(clock, [{ status: 200 }]);
    await new RateLimiter({ clock, maxWaitMs: 300_000, shared: share }).layer(t.send)(req());
    expect(clock.sleeps).toEqual([]);
  });
});

describe('waiting for an exhausted window', () => {
  it('adds at most 1% of the wait (250 ms at most) of jitter, so an export takes what the limit requires', async () => {
    const clock = new FakeClock();
    clock.rand = 0.999;
    const limiter = new RateLimiter({ clock, maxWaitMs: 300_000 });
    const reset = Math.floor(clock.now() / 1000) + 2;
    const t = scripted(clock, [{ status: 200, headers: rl(0, reset) }, { status: 200 }]);
    const send = limiter.layer(t.send);
    await send(req());
    await send(req());
    const late = t.sent[1]!.at - reset * 1000;
    expect(late).toBeGreaterThanOrEqual(0);
    expect(late).toBeLessThanOrEqual((reset * 1000 - t.sent[0]!.at) / 100);
  });
});

describe('rate-limit headers too far ahead to be right (more than a day)', () => {
  const nowSec = (clock: FakeClock) => Math.floor(clock.now() / 1000);

  it.each([
    ['Reset 10^8 s ahead', (c: FakeClock) => nowSec(c) + 1e8],
    ['a Reset in milliseconds', (c: FakeClock) => c.now() + 30_000],
    ['a Reset one day and a minute ahead', (c: FakeClock) => nowSec(c) + 86_460],
  ])('Remaining 0 with %s is neither remembered nor waited on by later requests', async (_name, reset) => {
    const { clock } = setup();
    const share = memoryShare();
    const limiter = new RateLimiter({ clock, maxWaitMs: 300_000, shared: share });
    const t = scripted(clock, [{ status: 200, headers: rl(0, reset(clock)) }, { status: 200 }]);
    const send = limiter.layer(t.send);
    await send(req());
    await send(req());
    expect(share.data).toEqual({});
    expect(clock.sleeps).toEqual([]);
    expect(t.sent).toHaveLength(2);
  });

  it('a window of exactly one day is still believed', async () => {
    const { clock } = setup();
    const share = memoryShare();
    const t = scripted(clock, [{ status: 200, headers: rl(0, nowSec(clock) + 86_400) }]);
    await new RateLimiter({ clock, maxWaitMs: 300_000, shared: share }).layer(t.send)(req());
    expect(Object.values(share.data)).toEqual([(nowSec(clock) + 86_400) * 1000]);
  });

  it.each([
    ['X-RateLimit-Reset', (c: FakeClock) => rl(0, nowSec(c) + 1e8)],
    ['X-RateLimit-Reset', (c: FakeClock) => rl(0, c.now())],
    ['Retry-After', () => ({ 'retry-after': '2600000' })],
    ['Retry-After', () => ({ 'retry-after': '99999999999999999999999' })],
    ['Retry-After', () => ({ 'retry-after': 'Fri, 31 Dec 9999 23:59:59 GMT' })],
  ])(
    'a 429 with an unusable %s is the service’s error at once (exit 1), not a wait and not a limit',
    async (name, headers) => {
      const { clock } = setup(1e9); // --max-wait of about 31 years: the bound is not --max-wait
      const share = memoryShare();
      const limiter = new RateLimiter({ clock, maxWaitMs: 1e12, shared: share });
      const t = scripted(clock, [{ status: 429, headers: headers(clock) }]);
      const err = await limiter
        .layer(t.send)(req())
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(CliError);
      expect(err).not.toBeInstanceOf(RateLimitError);
      expect(exitCodeFor(err)).toBe(1);
      expect((err as Error).message).toMatch(/HTTP 429/);
      expect((err as Error).message).toContain(`unusable ${name}`);
      expect(clock.sleeps).toEqual([]);
      expect(share.data).toEqual({});
      expect(t.sent).toHaveLength(1);
    },
  );

  it('a remembered window further ahead than a day (left by an older cssctl) is ignored', async () => {
    const { clock } = setup();
    const key = `http://127.0.0.1:1 acme all`;
    const t = scripted(clock, [{ status: 200 }]);
    await new RateLimiter({
      clock,
      maxWaitMs: 300_000,
      shared: memoryShare({ [key]: clock.now() + 1e11 }),
    }).layer(t.send)(req());
    expect(clock.sleeps).toEqual([]);
  });

  it('the file drops such entries (and passed ones) on reading and rewriting', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cssctl-rl-'));
    try {
      const now = Date.UTC(2026, 10, 22, 12);
      const path = join(dir, 'ratelimit-state.json');
      writeFileSync(
        path,
        JSON.stringify({ old: now - 1, huge: now + 1e11, ms: now * 1000, ok: now + 60_000 }),
      );
      const w = fileExhaustedWindows(dir, () => now);
      expect(w.load()).toEqual({ ok: now + 60_000 });
      w.save('next', now + 30_000);
      expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ ok: now + 60_000, next: now + 30_000 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('--max-wait names the remembered window when it came from an earlier process', async () => {
    const { clock } = setup();
    const t = scripted(clock, []);
    const err = await new RateLimiter({
      clock,
      maxWaitMs: 10_000,
      shared: memoryShare({ [`http://127.0.0.1:1 acme all`]: clock.now() + 3_600_000 }),
    })
      .layer(t.send)(req())
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitError);
    expect((err as Error).message).toMatch(/earlier cssctl process/);
    expect((err as Error).message).toMatch(/ratelimit-state\.json/);
    expect(t.sent).toHaveLength(0);
  });
});

describe('the --max-wait message', () => {
  it('names this wait when it alone passes the limit', async () => {
    const { clock, limiter } = setup(10);
    const t = scripted(clock, [{ status: 429, headers: { 'retry-after': '45' } }]);
    const err = await limiter
      .layer(t.send)(req())
      .catch((e: unknown) => e);
    expect((err as Error).message).toBe('rate limited: the service asks to wait 45s, past --max-wait 10s');
  });

  it('names the running total when it is the total that passes the limit', async () => {
    const { clock, limiter } = setup(25);
    const r = () => ({ status: 429, headers: { 'retry-after': '10' } });
    const t = scripted(clock, [r, r, r]);
    const err = await limiter
      .layer(t.send)(req())
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitError);
    expect((err as Error).message).toMatch(/wait 10s, .*30s in all, past --max-wait 25s/);
    expect(clock.totalSlept).toBe(20_000);
  });
});

describe('mutations that used to survive', () => {
  it('POST /scans also counts against the workspace limit: an exhausted workspace holds a scan creation', async () => {
    const { clock, limiter } = setup();
    const reset = Math.floor(clock.now() / 1000) + 30;
    const t = scripted(clock, [
      { status: 200, headers: rl(0, reset) }, // GET: the workspace's 120/min are spent
      { status: 201, headers: rl(9, reset + 60, 10) },
    ]);
    const send = limiter.layer(t.send);
    await send(req());
    await send(req({ method: 'POST', url: 'http://127.0.0.1:1/api/v1/scans' }));
    expect(t.sent[1]!.at).toBeGreaterThanOrEqual(reset * 1000);
  });

  it('a 429 is recorded as Remaining 0 whatever its Remaining header says', async () => {
    const { clock } = setup();
    const share = memoryShare();
    const reset = Math.floor(clock.now() / 1000) + 20;
    const t = scripted(clock, [{ status: 429, headers: rl(3, reset) }, { status: 200 }]);
    await new RateLimiter({ clock, maxWaitMs: 300_000, shared: share }).layer(t.send)(req());
    expect(share.data).toEqual({ 'http://127.0.0.1:1 acme all': reset * 1000 });
  });

  it('takes the later of Reset and Retry-After: a Reset later than Retry-After wins', async () => {
    const { clock, limiter } = setup();
    const t = scripted(clock, [
      { status: 429, headers: { ...rl(0, Math.floor(clock.now() / 1000) + 40), 'retry-after': '10' } },
      { status: 200 },
    ]);
    await limiter.layer(t.send)(req());
    expect(t.sent[1]!.at - t.sent[0]!.at).toBeGreaterThanOrEqual(40_000);
    expect(t.sent[1]!.at - t.sent[0]!.at).toBeLessThan(41_000);
    expect(clock.sleeps).toHaveLength(1); // one wait, announced once with its true length
  });

  it('takes the later of the two even when the 429 carries Reset without Remaining', async () => {
    const { clock, limiter } = setup();
    const reset = String(Math.floor(clock.now() / 1000) + 40);
    const t = scripted(clock, [
      { status: 429, headers: { 'x-ratelimit-reset': reset, 'retry-after': '10' } },
      { status: 200 },
    ]);
    await limiter.layer(t.send)(req());
    expect(t.sent[1]!.at).toBeGreaterThanOrEqual(Number(reset) * 1000);
  });
});

describe("documented limits before the first headers (issue 34 item 5: the MCP server's shared windows)", () => {
  /** A service allowing `limit` requests a minute, answering each after a few ms; with or without headers. */
  function service(clock: FakeClock, limit: number, headers = true) {
    let windowStart = clock.now();
    let used = 0;
    let over = 0;
    const send: Send = async () => {
      // Counted when it arrives; answered a moment later (the requests sent together are all under way).
      if (clock.now() - windowStart >= 60_000) {
        windowStart = clock.now();
        used = 0;
      }
      const reset = Math.ceil((windowStart + 60_000) / 1000);
      used++;
      const n = used;
      await new Promise((r) => setTimeout(r, 2));
      if (n > limit) {
        over++;
        return { status: 429, headers: headers ? rl(0, reset) : {}, body: '{}' };
      }
      return { status: 200, headers: headers ? rl(limit - n, reset) : {}, body: '{}' };
    };
    return { send, over: () => over, used: () => used };
  }

  function limiters(clock: FakeClock, documented: boolean) {
    const windows = new RateWindows(undefined, documented);
    return () => new RateLimiter({ clock, maxWaitMs: 600_000, windows });
  }

  it('60 concurrent calls against a 20-a-minute window draw at most a few 429s', async () => {
    const clock = new FakeClock();
    const s = service(clock, 20);
    const make = limiters(clock, true);
    const all = await Promise.all(Array.from({ length: 60 }, () => make().layer(s.send)(req())));
    expect(all.every((r) => r.status === 200)).toBe(true);
    expect(s.over()).toBeLessThanOrEqual(3);
  });

  it('without the documented limits (a command of its own), the same burst draws many (variant: the test can fail)', async () => {
    const clock = new FakeClock();
    const s = service(clock, 20);
    const make = limiters(clock, false);
    await Promise.all(Array.from({ length: 60 }, () => make().layer(s.send)(req())));
    expect(s.over()).toBeGreaterThan(20);
  });

  it('a service that sends no headers: 120 a minute assumed, then a wait for the window (10 for scan creations)', async () => {
    const clock = new FakeClock();
    const s = service(clock, 1000, false);
    const make = limiters(clock, true);
    await Promise.all(Array.from({ length: 121 }, () => make().layer(s.send)(req())));
    expect(clock.totalSlept).toBeGreaterThanOrEqual(59_000);
    const clock2 = new FakeClock();
    const s2 = service(clock2, 1000, false);
    const make2 = limiters(clock2, true);
    const create = req({ method: 'POST', url: 'http://127.0.0.1:1/api/v1/scans' });
    await Promise.all(Array.from({ length: 10 }, () => make2().layer(s2.send)(create)));
    expect(clock2.totalSlept).toBe(0);
    await make2().layer(s2.send)(create);
    expect(clock2.totalSlept).toBeGreaterThanOrEqual(59_000);
  });
});
