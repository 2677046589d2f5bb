import { PassThrough, Writable } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NotAListError, Paginator, readPage, type Page } from '../../src/api/paginate.js';
import { ApiError, InterruptedError } from '../../src/core/errors.js';
import { IO } from '../../src/core/io.js';
import { ALL_PAGE_SIZE, readPages } from '../../src/report/sources/pages.js';

class Collect extends Writable {
  chunks: string[] = [];
  override _write(chunk: Buffer | string, _enc: BufferEncoding, cb: (err?: Error | null) => void): void {
    this.chunks.push(chunk.toString());
    cb();
  }
  get lines(): string[] {
    return this.chunks.join('').split('\n').filter(Boolean);
  }
}

function makeIO() {
  const stderr = new Collect();
  const io = new IO({ stdin: new PassThrough(), stdout: new Collect(), stderr }, { env: {} });
  return { io, stderr };
}

interface Item {
  id: string;
}

const items = (n: number, prefix = 'i'): Item[] =>
  Array.from({ length: n }, (_, i) => ({ id: `${prefix}${i}` }));

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

/** A fake list endpoint: slices `data()` at (offset, min(limit, maxLimit)); refuses to be called forever. */
function endpoint(
  data: () => Item[],
  opts: { maxLimit?: number; total?: () => number; maxCalls?: number } = {},
) {
  const calls: [number, number][] = [];
  const fetch = async (offset: number, limit: number): Promise<Page<Item>> => {
    calls.push([offset, limit]);
    if (calls.length > (opts.maxCalls ?? 100)) throw new Error('paginator does not stop');
    const all = data();
    const size = Math.min(limit, opts.maxLimit ?? Infinity);
    return {
      items: all.slice(offset, offset + size),
      total: opts.total ? opts.total() : all.length,
      limit: size,
      offset,
    };
  };
  return { fetch, calls };
}

function paginator(
  fetch: (o: number, l: number) => Promise<Page<Item>>,
  io: IO,
  pageSize = 3,
  startOffset = 0,
) {
  return new Paginator<Item>(fetch, { pageSize, startOffset, idOf: (i) => i.id, io });
}

describe('readPage', () => {
  it('reads a bare array, which says nothing of a total (a page of it may be a server cap)', () => {
    const page = readPage<Item>([{ id: 'a' }, { id: 'b' }], 'connections');
    expect(page.items).toStrictEqual([{ id: 'a' }, { id: 'b' }]);
    expect(page.total).toBeUndefined();
  });

  it('reads {total, findings, limit, offset}', () => {
    const page = readPage<Item>({ total: 120, findings: [{ id: 'f1' }], limit: 50, offset: 50 }, 'findings');
    expect(page).toStrictEqual({ items: [{ id: 'f1' }], total: 120, limit: 50, offset: 50 });
  });

  it('finds the array under an unexpected key when it is the only one', () => {
    const page = readPage<Item>({ total: 3, results: [{ id: 'x' }], limit: 1, offset: 0 }, 'findings');
    expect(page.items).toStrictEqual([{ id: 'x' }]);
    expect(page.total).toBe(3);
  });

  it('prefers the named key when several arrays are present', () => {
    const page = readPage<Item>({ total: 1, tags: ['a'], scans: [{ id: 's1' }] }, 'scans');
    expect(page.items).toStrictEqual([{ id: 's1' }]);
  });

  it('an answer that is not a list is an error, never an empty list (issue 9 #12)', () => {
    for (const body of [{ a: [1], b: [2] }, { total: 0 }, null, 'hello', 42, undefined, true, {}]) {
      expect(() => readPage(body, 'findings'), JSON.stringify(body)).toThrow(NotAListError);
    }
    expect(() => readPage({ a: [1], b: [2] }, 'findings')).toThrow(/2 arrays: a, b/);
    expect(() => readPage(undefined, 'findings')).toThrow(/empty body/);
    // A record with one array field is a record, not a list of that field.
    expect(() => readPage({ id: 'x1', tags: ['a'] }, 'x1')).toThrow(NotAListError);
    expect(readPage({ items: [{ id: 'a' }] }, 'connections').items).toStrictEqual([{ id: 'a' }]);
  });

  it('ignores non-numeric total/limit/offset', () => {
    const page = readPage({ total: '5', findings: [], limit: null, offset: Number.NaN }, 'findings');
    expect(page.total).toBeUndefined();
    expect(page.limit).toBeUndefined();
    expect(page.offset).toBeUndefined();
  });
});

describe('Paginator', () => {
  it('follows pages until total, and no further', async () => {
    const data = items(7);
    const { fetch, calls } = endpoint(() => data);
    const { io, stderr } = makeIO();
    const p = paginator(fetch, io, 3);
    expect(await collect(p)).toStrictEqual(data);
    expect(calls).toStrictEqual([
      [0, 3],
      [3, 3],
      [6, 3],
    ]);
    expect(p.total).toBe(7);
    expect(p.position).toBe(7);
    expect(stderr.lines).toStrictEqual([]);
  });

  it('an exact multiple of the page size needs no extra request', async () => {
    const { fetch, calls } = endpoint(() => items(6));
    const { io } = makeIO();
    expect(await collect(paginator(fetch, io, 3))).toHaveLength(6);
    expect(calls).toHaveLength(2);
  });

  it('advances by the number of items actually returned when the server clamps the page size', async () => {
    const data = items(10);
    const { fetch, calls } = endpoint(() => data, { maxLimit: 4 });
    const { io, stderr } = makeIO();
    const got = await collect(paginator(fetch, io, 100));
    expect(got).toStrictEqual(data);
    expect(calls.map(([o]) => o)).toStrictEqual([0, 4, 8]);
    expect(stderr.lines).toStrictEqual([]);
  });

  it('property: every item exactly once, in order, whatever the page size, clamp and start', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 40 }),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 0, max: 10 }),
        async (n, pageSize, clamp, start) => {
          const data = items(n);
          const { fetch } = endpoint(() => data, { maxLimit: clamp });
          const { io, stderr } = makeIO();
          const p = paginator(fetch, io, pageSize, start);
          expect(await collect(p)).toStrictEqual(data.slice(start));
          expect(p.position).toBe(Math.max(start, n));
          expect(stderr.lines).toStrictEqual([]);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('warns once when the total changes between pages', async () => {
    let total = 9;
    const data = items(12);
    const { fetch } = endpoint(() => data, { total: () => total++ });
    const { io, stderr } = makeIO();
    await collect(paginator(fetch, io, 3));
    const warnings = stderr.lines.filter((l) => /total/i.test(l));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^warning: /);
    expect(warnings[0]).toContain('9');
    expect(warnings[0]).toContain('10');
  });

  it('does not warn when the total is steady', async () => {
    const { fetch } = endpoint(() => items(9));
    const { io, stderr } = makeIO();
    await collect(paginator(fetch, io, 3));
    expect(stderr.lines).toStrictEqual([]);
  });

  it('drops an item that shifts across a page boundary (a new item was added at the head), with a warning', async () => {
    let data = items(6);
    let served = 0;
    const { fetch } = endpoint(() => {
      // After the first page, a new item appears at the head: the last item of page 1 shifts into page 2.
      if (served++ === 1) data = [{ id: 'new' }, ...data];
      return data;
    });
    const { io, stderr } = makeIO();
    const got = await collect(paginator(fetch, io, 3));
    const ids = got.map((i) => i.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toStrictEqual(['i0', 'i1', 'i2', 'i3', 'i4', 'i5']);
    const dropped = stderr.lines.filter((l) => /dropped/.test(l));
    expect(dropped).toHaveLength(1);
    expect(dropped[0]).toMatch(/^warning: .*\b1\b/);
  });

  it('an item dropped mid-page leaves every other item its own resume position', async () => {
    // Page 2 (offset 3) repeats i1 in its middle: i3, i1, i4.
    const served = [{ id: 'i0' }, { id: 'i1' }, { id: 'i2' }, { id: 'i3' }, { id: 'i1' }, { id: 'i4' }];
    const fetch = async (offset: number, limit: number): Promise<Page<Item>> => ({
      items: served.slice(offset, offset + limit),
      total: served.length,
      limit,
    });
    const { io } = makeIO();
    const p = paginator(fetch, io, 3);
    const seen: [string, number][] = [];
    for await (const item of p) seen.push([item.id, p.position]);
    expect(seen).toEqual([
      ['i0', 1],
      ['i1', 2],
      ['i2', 3],
      ['i3', 4],
      ['i4', 6],
    ]);
    const pages = paginator(fetch, io, 3);
    const ends: number[] = [];
    for await (const page of pages.pages()) ends.push(pages.position, page.length);
    expect(ends).toEqual([3, 3, 6, 2]);
  });

  it('stops with a warning when the server ignores offset (every page is the first page)', async () => {
    const data = items(10);
    const calls: number[] = [];
    const fetch = async (offset: number, limit: number): Promise<Page<Item>> => {
      calls.push(offset);
      if (calls.length > 20) throw new Error('paginator does not stop');
      return { items: data.slice(0, limit), total: data.length };
    };
    const { io, stderr } = makeIO();
    const got = await collect(paginator(fetch, io, 3));
    expect(got).toStrictEqual(data.slice(0, 3));
    // Page 2 shows it; page 3 had been asked for ahead of it.
    expect(calls).toStrictEqual([0, 3, 6]);
    expect(stderr.lines.some((l) => /^warning: .*already (printed|read)/.test(l))).toBe(true);
  });

  it('stops on an empty page even when total promises more', async () => {
    const data = items(4);
    const { fetch, calls } = endpoint(() => data, { total: () => 100 });
    const { io } = makeIO();
    expect(await collect(paginator(fetch, io, 3))).toStrictEqual(data);
    // 6 was asked for ahead; page 2 ended at 4, so 4 is asked for, and only it.
    expect(calls.map(([o]) => o)).toStrictEqual([0, 3, 6, 4]);
  });

  it('without a total, goes on until an empty page: a short page may be the server cap (issue 9 #11)', async () => {
    const data = items(5);
    const calls: number[] = [];
    const fetch = async (offset: number, limit: number): Promise<Page<Item>> => {
      calls.push(offset);
      return { items: data.slice(offset, offset + limit) };
    };
    const { io } = makeIO();
    expect(await collect(paginator(fetch, io, 2))).toStrictEqual(data);
    expect(calls).toStrictEqual([0, 2, 4, 5]);
  });

  it('a bare array honouring limit/offset is followed past its first page (issue 9 #11)', async () => {
    const data = items(25);
    const calls: number[] = [];
    // A server capped at 10 per page, whatever is asked, giving no total.
    const fetch = async (offset: number): Promise<Page<Item>> => {
      calls.push(offset);
      return readPage<Item>(data.slice(offset, offset + 10), 'items');
    };
    const { io } = makeIO();
    expect(await collect(paginator(fetch, io, 100))).toStrictEqual(data);
    expect(calls).toStrictEqual([0, 10, 20, 25]);
  });

  it('a paginated object without total is not cut at the server cap (issue 9 #11)', async () => {
    const data = items(250);
    const fetch = async (offset: number, limit: number): Promise<Page<Item>> =>
      readPage<Item>({ findings: data.slice(offset, offset + Math.min(limit, 100)) }, 'findings');
    const { io } = makeIO();
    expect(await collect(paginator(fetch, io, 1000))).toStrictEqual(data);
  });

  it('stops on a repeated page when the server ignores offset and gives no total and no ids (issue 9 #13)', async () => {
    let calls = 0;
    const fetch = async (): Promise<Page<unknown>> => {
      if (++calls > 10) throw new Error('paginator does not stop');
      return readPage([{ n: 1 }, { n: 2 }], 'items');
    };
    const { io, stderr } = makeIO();
    const p = new Paginator<unknown>(fetch, { pageSize: 2, startOffset: 0, idOf: () => undefined, io });
    expect(await collect(p)).toStrictEqual([{ n: 1 }, { n: 2 }]);
    expect(calls).toBe(2);
    expect(stderr.lines.join('\n')).toMatch(/^warning: .*page already read/m);
  });

  it('a null item in a list does not crash and is handed on (issue 9 #14)', async () => {
    const fetch = async (offset: number): Promise<Page<Item | null>> =>
      offset === 0 ? { items: [null, { id: 'a' }, null], total: 3 } : { items: [], total: 3 };
    const { io } = makeIO();
    const p = new Paginator<Item | null>(fetch, { pageSize: 3, startOffset: 0, idOf: (i) => i!.id, io });
    expect(await collect(p)).toStrictEqual([null, { id: 'a' }, null]);
  });

  it('starts at startOffset', async () => {
    const data = items(8);
    const { fetch, calls } = endpoint(() => data);
    const { io } = makeIO();
    const p = paginator(fetch, io, 3, 5);
    expect(p.position).toBe(5);
    expect(await collect(p)).toStrictEqual(data.slice(5));
    expect(calls[0]).toStrictEqual([5, 3]);
  });

  it('position is the offset to resume from when a page request is interrupted', async () => {
    const data = items(20);
    const inner = endpoint(() => data);
    const fetch = async (offset: number, limit: number) => {
      if (inner.calls.length === 2) throw new InterruptedError();
      return inner.fetch(offset, limit);
    };
    const { io } = makeIO();
    const p = paginator(fetch, io, 4, 2);
    const got: Item[] = [];
    await expect(
      (async () => {
        for await (const x of p) got.push(x);
      })(),
    ).rejects.toBeInstanceOf(InterruptedError);
    expect(got).toStrictEqual(data.slice(2, 10));
    expect(p.position).toBe(10);
    // Resuming from there gives exactly the rest.
    const rest = await collect(paginator(endpoint(() => data).fetch, io, 4, p.position));
    expect([...got, ...rest]).toStrictEqual(data.slice(2));
  });

  it('stopping mid-page never makes the resume offset skip an item', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 30 }),
        fc.integer({ min: 1, max: 7 }),
        fc.nat(40),
        async (n, size, stopAfter) => {
          const data = items(n);
          const { io } = makeIO();
          const p = paginator(endpoint(() => data).fetch, io, size);
          const got: Item[] = [];
          for await (const x of p) {
            got.push(x);
            if (got.length >= stopAfter) break;
          }
          expect(p.position).toBeLessThanOrEqual(got.length);
        },
      ),
    );
  });
});

describe('Paginator reads ahead', () => {
  it('asks for the next two pages while the current one is consumed, and for none past the total', async () => {
    const data = items(15);
    const { fetch, calls } = endpoint(() => data);
    const { io } = makeIO();
    const seen: number[] = [];
    for await (const item of paginator(fetch, io, 3))
      if (Number(item.id.slice(1)) % 3 === 0) seen.push(calls.length);
    // Pages 2 and 3 were asked for while page 1 was read, page 4 with page 2 …; nothing after page 5.
    expect(seen).toEqual([3, 4, 5, 5, 5]);
    expect(calls.map(([o]) => o)).toEqual([0, 3, 6, 9, 12]);
  });

  it('never has more than two requests in flight', async () => {
    const data = items(30);
    let inFlight = 0;
    let most = 0;
    const fetch = async (offset: number, limit: number): Promise<Page<Item>> => {
      most = Math.max(most, ++inFlight);
      await new Promise((r) => setTimeout(r, 1));
      inFlight--;
      return { items: data.slice(offset, offset + limit), total: data.length, limit };
    };
    const { io } = makeIO();
    expect(await collect(paginator(fetch, io, 3))).toStrictEqual(data);
    expect(most).toBe(2);
  });

  it('a service whose pages shrink: the pages asked for past the short one go unused, nothing is lost', async () => {
    const data = items(20);
    const calls: number[] = [];
    // The service's cap drops from 4 to 2 after the first page.
    const fetch = async (offset: number, limit: number): Promise<Page<Item>> => {
      calls.push(offset);
      const size = Math.min(limit, offset === 0 ? 4 : 2);
      return { items: data.slice(offset, offset + size), total: data.length, limit: size };
    };
    const { io, stderr } = makeIO();
    expect(await collect(paginator(fetch, io, 4))).toStrictEqual(data);
    expect(stderr.lines).toEqual([]);
    // 8 (asked for ahead, page 2 ended at 6) is asked for again when its turn comes; no offset is skipped.
    expect(calls.slice(0, 4)).toStrictEqual([0, 4, 8, 6]);
    expect(new Set(calls)).toStrictEqual(new Set([0, 4, 6, 8, 10, 12, 14, 16, 18]));
  });

  it('after a short page that is not the last, asks for one page ahead only', async () => {
    const data = items(9);
    const calls: number[] = [];
    // Says it gives 3 a page but gives 2: where the page after next starts is not known.
    const fetch = async (offset: number): Promise<Page<Item>> => {
      calls.push(offset);
      return { items: data.slice(offset, offset + 2), total: data.length, limit: 3 };
    };
    const { io } = makeIO();
    expect(await collect(paginator(fetch, io, 3))).toStrictEqual(data);
    expect(calls).toStrictEqual([0, 2, 4, 6, 8]);
  });

  it('a failing read-ahead surfaces after the page before it was delivered', async () => {
    const data = items(6);
    const fetch = async (offset: number, limit: number): Promise<Page<Item>> => {
      if (offset > 0) throw new Error('page 2 failed');
      return { items: data.slice(offset, offset + limit), total: 6, limit };
    };
    const { io } = makeIO();
    const got: Item[] = [];
    await expect(
      (async () => {
        for await (const item of paginator(fetch, io, 3)) got.push(item);
      })(),
    ).rejects.toThrow('page 2 failed');
    expect(got).toEqual(data.slice(0, 3));
  });
});

describe('readPages (every Paginator of the commands)', () => {
  it('reads every page from 0 at ALL_PAGE_SIZE, else from the given offset at the given size', async () => {
    const { io } = makeIO();
    const all = endpoint(() => items(5), { maxLimit: 2 });
    expect(await collect(readPages(io, all.fetch))).toStrictEqual(items(5));
    expect(all.calls[0]).toStrictEqual([0, ALL_PAGE_SIZE]);
    const from = endpoint(() => items(5));
    expect(await collect(readPages(io, from.fetch, { limit: 2, offset: 1 }))).toStrictEqual(
      items(5).slice(1),
    );
    expect(from.calls).toStrictEqual([
      [1, 2],
      [3, 2],
    ]);
  });

  it('a refused large first page is asked again at a common size, unless the size was the user’s', async () => {
    const { io } = makeIO();
    const inner = endpoint(() => items(3));
    const refusing = (offset: number, limit: number) => {
      if (limit > 100)
        return Promise.reject(
          new ApiError({ status: 422, method: 'GET', url: 'x', detail: 'limit too large', field: 'limit' }),
        );
      return inner.fetch(offset, limit);
    };
    expect(await collect(readPages(io, refusing))).toStrictEqual(items(3));
    expect(inner.calls).toStrictEqual([[0, 100]]);
    await expect(collect(readPages(io, refusing, { limit: 500 }))).rejects.toThrow('limit too large');
  });
});
