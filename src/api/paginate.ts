import type { IO } from '../core/io.js';

export interface Page<T> {
  items: T[];
  total?: number;
  limit?: number;
  offset?: number;
}

/**
 * Reads a list answer: either a bare array or the paginated object of service-api.md §4
 * (`{total, <resource>: [...], limit, offset}`). When the array is not under `key`, the one array field is used.
 */
export function readPage<T>(body: unknown, key: string): Page<T> {
  if (Array.isArray(body)) return { items: body as T[], total: body.length };
  if (body && typeof body === 'object') {
    const b = body as Record<string, unknown>;
    let items = b[key];
    if (!Array.isArray(items)) {
      const arrays = Object.values(b).filter(Array.isArray);
      items = arrays.length === 1 ? arrays[0] : [];
    }
    return {
      items: items as T[],
      total: num(b.total),
      limit: num(b.limit),
      offset: num(b.offset),
    };
  }
  return { items: [] };
}

function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

export type FetchPage<T> = (offset: number, limit: number) => Promise<Page<T>>;

/**
 * `--all`: follows pages until `total` items are read, yielding as it goes so memory stays flat. Checks that
 * `total` holds steady and drops items whose id it has just printed (items shift between pages when the
 * collection changes under us; ids of the last two pages are kept, which bounds memory).
 * `position` is the offset to resume from, for the message printed on Ctrl-C.
 */
export class Paginator<T> {
  position: number;
  total?: number;

  constructor(
    private readonly fetchPage: FetchPage<T>,
    private readonly opts: {
      pageSize: number;
      startOffset: number;
      idOf: (item: T) => string | undefined;
      io: IO;
    },
  ) {
    this.position = opts.startOffset;
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T> {
    let recent = new Set<string>();
    let previous = new Set<string>();
    let warnedTotal = false;
    let dropped = 0;
    for (;;) {
      const page = await this.fetchPage(this.position, this.opts.pageSize);
      if (page.total !== undefined) {
        if (this.total !== undefined && page.total !== this.total && !warnedTotal) {
          this.opts.io.warn(
            `the total changed from ${this.total} to ${page.total} while paging; the list may be incomplete`,
          );
          warnedTotal = true;
        }
        this.total = page.total;
      }
      if (page.items.length === 0) break;
      let fresh = 0;
      for (const item of page.items) {
        const id = this.opts.idOf(item);
        if (id !== undefined && (recent.has(id) || previous.has(id))) {
          dropped++;
          continue;
        }
        if (id !== undefined) recent.add(id);
        fresh++;
        yield item;
      }
      this.position += page.items.length;
      if (fresh === 0) {
        this.opts.io.warn('the service returned a page of items already printed; stopping');
        break;
      }
      previous = recent;
      recent = new Set();
      if (this.total !== undefined && this.position >= this.total) break;
      if (this.total === undefined && page.items.length < this.opts.pageSize) break;
    }
    if (dropped > 0)
      this.opts.io.warn(`dropped ${dropped} item(s) already printed (the list changed while paging)`);
  }
}
