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
 * The page size `--all` and `api --paginate` ask for when the user names none: the service clamps it to the
 * largest it allows and echoes that `limit` (service-api.md, the paginated object), which the paginator keeps. Fewer,
 * larger pages are the cheapest export, and under a rate limit they spend the fewest requests.
 */
export const LARGEST_PAGE = 1000;

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
    for await (const page of this.pages()) yield* page;
  }

  /**
   * The same items a page at a time (each page without the items already printed): output writes a page in
   * one go instead of paying an async step per item, which is most of an export's cost past its requests.
   */
  async *pages(): AsyncGenerator<T[]> {
    let recent = new Set<string>();
    let previous = new Set<string>();
    let warnedTotal = false;
    let dropped = 0;
    let pageSize = this.opts.pageSize;
    let pending: Promise<Page<T>> | undefined;
    for (;;) {
      const page = await (pending ?? this.fetchPage(this.position, pageSize));
      pending = undefined;
      if (page.total !== undefined) {
        if (this.total !== undefined && page.total !== this.total && !warnedTotal) {
          this.opts.io.warn(
            `the total changed from ${this.total} to ${page.total} while paging; the list may be incomplete`,
          );
          warnedTotal = true;
        }
        this.total = page.total;
      }
      // The service may give fewer than asked (its maximum): the size it echoes is the page size from now on.
      if (page.limit !== undefined && page.limit > 0 && page.limit < pageSize) pageSize = page.limit;
      if (page.items.length === 0) break;
      const fresh: T[] = [];
      for (const item of page.items) {
        const id = this.opts.idOf(item);
        if (id !== undefined && (recent.has(id) || previous.has(id))) {
          dropped++;
          continue;
        }
        if (id !== undefined) recent.add(id);
        fresh.push(item);
      }
      const next = this.position + page.items.length;
      // Without a total, a short page ends the list only when the service said what a full page is; else
      // it may be the service's cap, and the next (empty) page tells.
      const more =
        fresh.length > 0 &&
        (this.total !== undefined
          ? next < this.total
          : !(page.limit !== undefined && page.items.length < pageSize));
      if (more && this.total !== undefined) {
        // The next page is asked for while this one is written: an export waits on the service or on its
        // output, not on each in turn. Still one request at a time; its failure surfaces when it is read.
        pending = this.fetchPage(next, pageSize);
        pending.catch(() => undefined);
      }
      if (fresh.length > 0) yield fresh;
      this.position = next;
      if (fresh.length === 0) {
        this.opts.io.warn('the service returned a page of items already printed; stopping');
        break;
      }
      previous = recent;
      recent = new Set();
      if (!more) break;
    }
    if (dropped > 0)
      this.opts.io.warn(`dropped ${dropped} item(s) already printed (the list changed while paging)`);
  }
}
