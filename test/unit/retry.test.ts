import { describe, expect, it } from 'vitest';
import { withRetry } from '../../src/core/http/retry.js';
import { NetworkError } from '../../src/core/errors.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { req, scripted } from '../helpers/fake-send.js';

describe('retry layer', () => {
  it('tries three times in all on 500, waiting 2 s then 4 s (plus ≤10% jitter), then gives the 500 back', async () => {
    const clock = new FakeClock();
    clock.rand = 0.99;
    const t = scripted(clock, [{ status: 500 }, { status: 500 }, { status: 500 }]);
    const res = await withRetry(t.send, { clock })(req());
    expect(res.status).toBe(500);
    expect(t.sent).toHaveLength(3);
    expect(clock.sleeps).toHaveLength(2);
    expect(clock.sleeps[0]).toBeGreaterThanOrEqual(2000);
    expect(clock.sleeps[0]).toBeLessThanOrEqual(2200);
    expect(clock.sleeps[1]).toBeGreaterThanOrEqual(4000);
    expect(clock.sleeps[1]).toBeLessThanOrEqual(4400);
  });

  it.each([502, 503, 504])('retries %i and returns the success that follows', async (status) => {
    const clock = new FakeClock();
    const t = scripted(clock, [{ status }, { status: 200, body: '{"ok":true}' }]);
    const res = await withRetry(t.send, { clock })(req());
    expect(res.status).toBe(200);
    expect(t.sent).toHaveLength(2);
  });

  it.each([400, 401, 403, 404, 409, 422, 429])('never retries %i', async (status) => {
    const clock = new FakeClock();
    const t = scripted(clock, [{ status }]);
    const res = await withRetry(t.send, { clock })(req());
    expect(res.status).toBe(status);
    expect(t.sent).toHaveLength(1);
    expect(clock.sleeps).toEqual([]);
  });

  it('retries connection resets and timeouts, not refused connections', async () => {
    const clock = new FakeClock();
    const t = scripted(clock, [
      new NetworkError('reset', 'reset'),
      new NetworkError('slow', 'timeout'),
      { status: 200 },
    ]);
    expect((await withRetry(t.send, { clock })(req())).status).toBe(200);
    const clock2 = new FakeClock();
    const t2 = scripted(clock2, [new NetworkError('refused', 'refused')]);
    await expect(withRetry(t2.send, { clock: clock2 })(req())).rejects.toThrow('refused');
    expect(t2.sent).toHaveLength(1);
  });

  it('throws the last network error after three attempts', async () => {
    const clock = new FakeClock();
    const t = scripted(
      clock,
      [1, 2, 3].map((n) => new NetworkError(`reset ${n}`, 'reset')),
    );
    await expect(withRetry(t.send, { clock })(req())).rejects.toThrow('reset 3');
    expect(t.sent).toHaveLength(3);
  });

  it('sends the same request (headers, Idempotency-Key, body) on every attempt', async () => {
    const clock = new FakeClock();
    const t = scripted(clock, [{ status: 503 }, { status: 201 }]);
    const r = req({
      method: 'POST',
      headers: { 'idempotency-key': 'k-1', 'x-tenant-slug': 'acme' },
      body: '{"a":1}',
    });
    await withRetry(t.send, { clock })(r);
    expect(t.sent.map((s) => s.req.headers['idempotency-key'])).toEqual(['k-1', 'k-1']);
    expect(t.sent.map((s) => s.req.body)).toEqual(['{"a":1}', '{"a":1}']);
    expect(t.sent.map((s) => s.req.attempt)).toEqual([1, 2]);
  });

  it('the retry notice names the attempt about to be made: 2, then 3', async () => {
    const clock = new FakeClock();
    const notices: { attempt: number; waitMs: number; reason: string }[] = [];
    const t = scripted(clock, [{ status: 502 }, new NetworkError('reset', 'reset'), { status: 200 }]);
    await withRetry(t.send, { clock, onRetry: (i) => notices.push(i) })(req());
    expect(notices.map((n) => n.attempt)).toEqual([2, 3]);
    expect(notices[0]!.reason).toBe('the service answered HTTP 502');
    expect(notices[1]!.reason).toBe('reset');
    expect(notices.map((n) => n.waitMs)).toEqual(clock.sleeps);
    expect(t.sent.map((s) => s.req.attempt)).toEqual([1, 2, 3]);
  });

  it('stops waiting at once when interrupted', async () => {
    const clock = new FakeClock();
    const ac = new AbortController();
    ac.abort();
    const t = scripted(clock, [{ status: 500 }]);
    await expect(withRetry(t.send, { clock })(req({ signal: ac.signal }))).rejects.toThrow('interrupted');
  });
});
