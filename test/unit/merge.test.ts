import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { Finding, Severity } from '../../src/api/findings-types.js';
import type { Page } from '../../src/api/paginate.js';
import { allSeverities, severityPage, type FetchSeverity } from '../../src/report/sources/severities.js';
import type { Context } from '../../src/core/context.js';
import { IO } from '../../src/core/io.js';
import { Collect } from '../helpers/streams.js';

function fakeContext(argv: string[] = ['findings', 'list']) {
  const stderr = new Collect();
  const io = new IO({ stdin: new PassThrough(), stdout: new Collect(), stderr }, { env: {} });
  const ctx: Pick<Context, 'io' | 'argv'> = { io, argv };
  return { ctx, stderr };
}

/** Findings per severity, served with limit/offset capped at `cap`, with totals. */
function service(counts: Partial<Record<Severity, number>>, cap = 100) {
  const data = new Map<Severity, Finding[]>();
  for (const [s, n] of Object.entries(counts) as [Severity, number][])
    data.set(
      s,
      Array.from({ length: n }, (_, i) => ({ id: `${s}-${i}`, severity: s })),
    );
  const calls: [Severity, number, number | undefined][] = [];
  const fetch: FetchSeverity = async (severity, offset, limit) => {
    calls.push([severity, offset, limit]);
    const all = data.get(severity) ?? [];
    const size = Math.min(limit ?? 50, cap);
    return { items: all.slice(offset, offset + size), total: all.length, limit: size, offset };
  };
  const ids = (sevs: Severity[]) => sevs.flatMap((s) => (data.get(s) ?? []).map((f) => f.id));
  return { fetch, calls, ids };
}

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

describe('several severities', () => {
  it('one page: --offset and --limit count across the merged list, most severe first', async () => {
    const svc = service({ critical: 3, high: 10, low: 20 });
    const { ctx } = fakeContext();
    const src = severityPage(ctx, ['critical', 'high', 'low'], svc.fetch, { offset: 2, limit: 5 });
    expect((await collect(src)).map((f) => f.id)).toStrictEqual(
      svc.ids(['critical', 'high', 'low']).slice(2, 7),
    );
    expect(await src.page!()).toStrictEqual({ offset: 2, total: 33 });
  });

  it('one page: an offset past the first severity skips it by its total', async () => {
    const svc = service({ critical: 3, high: 10, low: 20 });
    const { ctx } = fakeContext();
    const src = severityPage(ctx, ['critical', 'high', 'low'], svc.fetch, { offset: 15, limit: 4 });
    expect((await collect(src)).map((f) => f.id)).toStrictEqual(['low-2', 'low-3', 'low-4', 'low-5']);
  });

  it('--all: every finding once, in severity order; resume names the severity it was on and those left', async () => {
    const svc = service({ critical: 7, high: 12, medium: 5 }, 4);
    const { ctx } = fakeContext(['findings', 'list', '--severity', 'medium,critical,high', '--all']);
    const src = allSeverities(ctx, ['critical', 'high', 'medium'], svc.fetch, { limit: 4 });
    const it = src[Symbol.asyncIterator]();
    const got: string[] = [];
    for (let i = 0; i < 10; i++) got.push(((await it.next()).value as Finding).id);
    expect(got).toStrictEqual(svc.ids(['critical', 'high', 'medium']).slice(0, 10));
    // 7 critical shown, then 3 of high (offset 3 within high).
    expect(src.resume!()).toBe('cssctl findings list --all --severity high,medium --offset 3');
    for (let r = await it.next(); !r.done; r = await it.next()) got.push((r.value as Finding).id);
    expect(got).toStrictEqual(svc.ids(['critical', 'high', 'medium']));
  });

  it('drops findings of another severity (a service that ignores the filter), with one warning', async () => {
    const { ctx, stderr } = fakeContext();
    const fetch: FetchSeverity = async (_s, offset): Promise<Page<Finding>> => ({
      items:
        offset === 0
          ? [
              { id: 'a', severity: 'critical' },
              { id: 'b', severity: 'low' },
            ]
          : [],
      total: 2,
    });
    const got = await collect(allSeverities(ctx, ['critical', 'low'], fetch, {}));
    expect(got.map((f) => `${f.id}:${f.severity}`)).toStrictEqual(['a:critical', 'b:low']);
    expect(stderr.text.match(/warning: /g)).toHaveLength(2);
  });
});
