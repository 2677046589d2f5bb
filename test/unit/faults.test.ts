import { describe, expect, it } from 'vitest';
import { FaultQueue, parseFaults } from '../sandbox/faults.js';
import { optionsFromEnv } from '../sandbox/env.js';
import { startSandbox } from '../sandbox/server.js';

describe('recurring faults (SANDBOX_FAULTS with %PERCENT and /EVERY)', () => {
  it('parses a share of requests and every Nth request, with a path and a method', () => {
    expect(parseFaults('500%5, 429:3/40@/findings, 503 % 2.5 @GET/scans')).toEqual([
      { kind: 'status', status: 500, percent: 5 },
      { kind: 'status', status: 429, retryAfterSeconds: 3, every: 40, path: '/findings' },
      { kind: 'status', status: 503, percent: 2.5, path: '/scans', method: 'GET' },
    ]);
  });

  it.each(['500%0', '500%101', '500/0', '500%', '500/', '500x2%5'])('refuses "%s" in one line', (spec) => {
    expect(() => parseFaults(spec)).toThrow(/^bad fault/);
  });

  it('every Nth matching request, never used up; other paths do not count', () => {
    const q = new FaultQueue(1);
    q.add(...parseFaults('429:2/3@/findings'));
    const hits = Array.from({ length: 12 }, (_, i) => {
      q.take('GET', '/connections');
      return q.take('GET', '/findings') ? i + 1 : 0;
    }).filter(Boolean);
    expect(hits).toEqual([3, 6, 9, 12]);
  });

  it('a percentage fires about that often, the same requests for the same seed, others for another', () => {
    const run = (seed: number) => {
      const q = new FaultQueue(seed);
      q.add(...parseFaults('500%5'));
      return Array.from({ length: 4000 }, () => (q.take('GET', '/findings') ? 1 : 0));
    };
    const a = run(7);
    const hits = a.reduce<number>((n, x) => n + x, 0);
    expect(hits).toBeGreaterThan(120); // 5% of 4000 is 200
    expect(hits).toBeLessThan(280);
    expect(run(7)).toEqual(a);
    expect(run(8)).not.toEqual(a);
  });

  it('one-shot faults still come first, in order, and are used up', () => {
    const q2 = new FaultQueue(1);
    q2.add(...parseFaults('502x2, 500/1'));
    const statuses = [1, 2, 3].map(() => {
      const f = q2.take('GET', '/x');
      return f?.kind === 'status' ? f.status : 0;
    });
    expect(statuses).toEqual([502, 502, 500]);
  });

  it('SANDBOX_FAULT_SEED seeds the dice, and a reset sandbox repeats the same run', async () => {
    const opts = optionsFromEnv({
      SANDBOX_FAULTS: '500%30@/connections',
      SANDBOX_FAULT_SEED: '42',
      PORT: '0',
    });
    expect(opts.faultSeed).toBe(42);
    const sb = await startSandbox(opts);
    try {
      const statuses = async () => {
        const out: number[] = [];
        for (let i = 0; i < 20; i++) out.push((await fetch(`${sb.url}/api/v1/connections`)).status);
        return out;
      };
      const first = await statuses();
      expect(first).toContain(500);
      expect(first.some((s) => s !== 500)).toBe(true);
      sb.reset();
      expect(await statuses()).toEqual(first);
    } finally {
      await sb.close();
    }
  });
});

describe('hang and >SKIP (the hanging poll of issue 20 #1)', () => {
  it('parses hang and a skip of the first matching requests', () => {
    expect(parseFaults('hang>1@GET/scans/, hang x2, 503x2>3')).toEqual([
      { kind: 'hang', count: 1, skip: 1, path: '/scans/', method: 'GET' },
      { kind: 'hang', count: 2 },
      { kind: 'status', status: 503, count: 2, skip: 3 },
    ]);
  });

  it.each(['hang:5', '500%5>1', '500/2>1', 'hang>'])('refuses "%s" in one line', (spec) => {
    expect(() => parseFaults(spec)).toThrow(/^bad fault/);
  });

  it('lets the skipped requests through, then fires its count; other paths do not count', () => {
    const q = new FaultQueue(1);
    q.add(...parseFaults('hang x2 >1 @GET/scans/'));
    const seen = [
      q.take('GET', '/scans/scn_1'),
      q.take('GET', '/connections'),
      q.take('POST', '/scans/scn_1'),
      q.take('GET', '/scans/scn_1'),
      q.take('GET', '/scans/scn_1'),
      q.take('GET', '/scans/scn_1'),
    ].map((f) => f?.kind);
    expect(seen).toEqual([undefined, undefined, undefined, 'hang', 'hang', undefined]);
  });

  it('a hung request holds its answer until the client leaves, and the sandbox still closes', async () => {
    const sb = await startSandbox({ faults: parseFaults('hang@/health') });
    try {
      const ac = new AbortController();
      const pending = fetch(`${sb.url}/api/v1/health`, { signal: ac.signal }).catch((e: Error) => e.name);
      await new Promise((r) => setTimeout(r, 300));
      expect(sb.requests.map((r) => [r.fault, r.status])).toEqual([['hang', 0]]);
      ac.abort();
      expect(await pending).toBe('AbortError');
    } finally {
      await sb.close();
    }
  });
});
