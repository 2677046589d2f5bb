import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { Scan, Severity } from '../../src/api/findings-types.js';
import type { ApiClient } from '../../src/core/http/client.js';
import { IO } from '../../src/core/io.js';
import {
  GateTally,
  gateFromCounts,
  gateLine,
  knownCounts,
  meetsGate,
  trustedCount,
} from '../../src/report/gate.js';
import { countFindings } from '../../src/report/sources/count.js';
import { Collect } from '../helpers/streams.js';

function io() {
  const stderr = new Collect();
  return { io: new IO({ stdin: new PassThrough(), stdout: new Collect(), stderr }, { env: {} }), stderr };
}

/** A client whose GET /findings answers come from `answer(query)`; records the queries. */
function client(answer: (q: Record<string, unknown>) => unknown) {
  const asked: Record<string, unknown>[] = [];
  const c = {
    request: async (r: { query: Record<string, unknown> }) => {
      asked.push(r.query);
      return answer(r.query);
    },
  } as unknown as ApiClient;
  return { c, asked };
}

function totals(t: Partial<Record<Severity, number>>) {
  return client((q) => ({ total: t[q.severity as Severity] ?? 0, findings: [], limit: 1, offset: 0 }));
}

const scan = (critical?: unknown) =>
  ({ scan_id: 's1', status: 'completed', critical_count: critical }) as Scan;

async function gate(c: ApiClient, s: Scan, threshold: Severity) {
  const { io: out } = io();
  return gateFromCounts(s, threshold, (severity) => countFindings({ io: out }, c, s.scan_id, severity));
}

describe('--fail-on: the rule', () => {
  it('at or above the threshold, never an unknown severity', () => {
    expect(meetsGate({ severity: 'critical' }, 'high')).toBe(true);
    expect(meetsGate({ severity: 'HIGH' }, 'high')).toBe(true);
    expect(meetsGate({ severity: 'medium' }, 'high')).toBe(false);
    expect(meetsGate({ severity: 'severe' }, 'info')).toBe(false);
  });

  it('a tally counts what passes and decides the same way', () => {
    const t = new GateTally();
    for (const severity of ['critical', 'high', 'high', 'low', 'weird']) t.add({ severity });
    expect(t.gate('high')).toStrictEqual({ threshold: 'high', met: true, counts: { critical: 1, high: 2 } });
    expect(t.gate('critical').met).toBe(true);
    const clean = new GateTally();
    clean.add({ severity: 'low' });
    expect(clean.gate('medium').met).toBe(false);
  });
});

describe('--fail-on: counted from totals', () => {
  it('critical_count for critical; every severity at or above the threshold is counted', async () => {
    const { c, asked } = totals({ high: 4, medium: 1 });
    expect(await gate(c, scan(2), 'medium')).toStrictEqual({
      threshold: 'medium',
      met: true,
      counts: { critical: 2, high: 4, medium: 1 },
    });
    expect(asked.map((q) => q.severity)).toStrictEqual(['high', 'medium']);
    expect(asked.every((q) => q.limit === 1 && q.scan_id === 's1')).toBe(true);
  });

  it('met only through a per-severity total', async () => {
    const { c } = totals({ medium: 1 });
    expect((await gate(c, scan(0), 'medium')).counts).toStrictEqual({ critical: 0, high: 0, medium: 1 });
  });

  it('not met: lower severities do not count; a missing critical_count is asked for', async () => {
    const { c, asked } = totals({ low: 9, info: 3 });
    expect((await gate(c, scan(undefined), 'high')).met).toBe(false);
    expect(asked.map((q) => q.severity)).toStrictEqual(['critical', 'high']);
  });

  it.each([-1, 1.5, '2', null, Number.NaN, Infinity])(
    'an impossible critical_count (%s) is never trusted: the findings are counted',
    async (bad) => {
      const { c, asked } = totals({ critical: 2 });
      const g = await gate(c, scan(bad), 'critical');
      expect(g).toStrictEqual({ threshold: 'critical', met: true, counts: { critical: 2 } });
      expect(asked.map((q) => q.severity)).toStrictEqual(['critical']);
    },
  );

  it('an answer without total: its items are counted, every page of them', async () => {
    // A bare array that honours offset and limit: 3 criticals, read as [limit=1], then [all], then [].
    const items = [1, 2, 3].map((i) => ({ id: `f${i}`, severity: 'critical' }));
    const { c, asked } = client((q) =>
      items.slice(Number(q.offset ?? 0), Number(q.offset ?? 0) + Number(q.limit)),
    );
    const g = await gate(c, scan(undefined), 'critical');
    expect(g.counts).toStrictEqual({ critical: 3 });
    expect(g.met).toBe(true);
    expect(asked.map((q) => [q.offset, q.limit])).toStrictEqual([
      [undefined, 1],
      [undefined, 1000],
      [3, 1000],
    ]);
  });

  it('an empty answer without total is 0; a total that cannot be true is not trusted', async () => {
    expect((await gate(client(() => []).c, scan(undefined), 'critical')).met).toBe(false);
    const bogus = client((q) =>
      q.limit === 1
        ? { total: -5, findings: [] }
        : { findings: Number(q.offset ?? 0) === 0 ? [{ id: 'a', severity: 'critical' }] : [] },
    );
    expect((await gate(bogus.c, scan(undefined), 'critical')).counts).toStrictEqual({ critical: 1 });
  });

  it('a gate that cannot count (no total, items that cannot all be read) is an error, never a pass', async () => {
    // The service ignores offset: the same page of findings without ids, again and again.
    const { c } = client(() => ({ findings: [{ severity: 'critical' }] }));
    await expect(gate(c, scan(undefined), 'critical')).rejects.toThrow(
      /cannot decide --fail-on: the service gave no usable total of critical findings of scan s1/,
    );
  });
});

describe('--fail-on: what is said', () => {
  it('the exit-10 line counts every severity at or above the threshold', () => {
    expect(gateLine('scan scn_1', { threshold: 'high', met: true, counts: { critical: 2, high: 4 } })).toBe(
      'scan scn_1 has 6 findings at or above high: 2 critical, 4 high (--fail-on high)',
    );
    expect(
      gateLine('scan scn_1', { threshold: 'medium', met: true, counts: { critical: 0, high: 1, medium: 0 } }),
    ).toBe('scan scn_1 has 1 finding at or above medium: 1 high (--fail-on medium)');
  });

  it('known counts: the gate first, then the record where it can be true', () => {
    const s = {
      scan_id: 's',
      status: 'completed',
      critical_count: -1,
      high_count: 3,
      low_count: 2.5,
      medium_count: 7,
    } as Scan;
    expect(knownCounts(s, { critical: 2, high: 4 })).toStrictEqual({ critical: 2, high: 4, medium: 7 });
    expect(trustedCount(0)).toBe(0);
    expect(trustedCount(-0.5)).toBeUndefined();
  });
});
