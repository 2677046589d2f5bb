import { createHash } from 'node:crypto';
import { CliError } from '../core/errors.js';
import type { IO } from '../core/io.js';
import { progressOf } from '../core/progress.js';

export interface Page<T> {
  items: T[];
  /** Absent when the service does not say (a bare array never does). */
  total?: number;
  /** A `total` was given but is not a count that can be true (negative, fractional, not a number). */
  invalidTotal?: true;
  limit?: number;
  offset?: number;
}

/** An answer that is neither a list nor a paginated object (cli-contract.md §2: an error, never an empty list). */
export class NotAListError extends CliError {
  constructor(what: string) {
    // An object's keys are the service's text: the MCP server says only that the answer was not a list.
    super(`the service's answer is not a list (${what})`, {
      neutral: "the service's answer could not be read: it is not a list",
    });
  }
}

function describe(body: unknown): string {
  if (body === undefined) return 'an empty body';
  if (body === null) return 'null';
  if (Array.isArray(body)) return 'an array';
  if (typeof body === 'object') {
    const arrays = Object.entries(body as object).filter(([, v]) => Array.isArray(v));
    return arrays.length > 1
      ? `an object with ${arrays.length} arrays: ${arrays.map(([k]) => k).join(', ')}`
      : arrays.length === 1
        ? 'an object that is not a page'
        : 'an object without an array of items';
  }
  return `a ${typeof body}`;
}

/**
 * Reads a list answer: either a bare array or the paginated object of service-api.md §4
 * (`{total, <resource>: [...], limit, offset}`). When the array is not under `key`, the one array field is
 * used. Anything else (null, a string, a number, an empty body, an object with no array or with several) is
 * a NotAListError.
 */
export function readPage<T>(body: unknown, key: string): Page<T> {
  if (Array.isArray(body)) return { items: body as T[] };
  if (body && typeof body === 'object') {
    const b = body as Record<string, unknown>;
    let items = b[key];
    if (!Array.isArray(items)) {
      // Under another name, the one array of an object that looks like a page (a record such as
      // `{"id": …, "tags": [...]}` is not a list of tags).
      const arrays = Object.entries(b).filter(([, v]) => Array.isArray(v));
      const pageLike = arrays.length === Object.keys(b).length || PAGE_FIELDS.some((f) => f in b);
      if (arrays.length !== 1 || !pageLike) throw new NotAListError(describe(body));
      items = arrays[0]![1];
    }
    const total = count(b.total);
    return {
      items: items as T[],
      total,
      ...(total === undefined && b.total !== undefined && b.total !== null ? { invalidTotal: true } : {}),
      limit: count(b.limit),
      offset: count(b.offset),
    };
  }
  throw new NotAListError(describe(body));
}

const PAGE_FIELDS = ['total', 'limit', 'offset', 'count', 'next'];

function count(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : undefined;
}

export type FetchPage<T> = (offset: number, limit: number) => Promise<Page<T>>;

/** How many pages `--all` asks for ahead of the one it reads: two requests in flight at most. */
export const PAGES_AHEAD = 2;

/** An item's id for de-duplication; items that are not objects, or have none, have no id. */
export function idOfObject(item: unknown, ...keys: string[]): string | undefined {
  if (item === null || typeof item !== 'object') return undefined;
  for (const k of keys.length > 0 ? keys : ['id']) {
    const v = (item as Record<string, unknown>)[k];
    if (typeof v === 'string' || typeof v === 'number') return String(v);
  }
  return undefined;
}

/**
 * `--all`: follows pages, yielding as it goes so memory stays flat. With a `total`, until that many items are
 * read; without one (a bare array, or an object that does not say), until a page comes back empty or brings
 * nothing new — a short page may be the service's own cap, not the end. Checks that `total` holds steady,
 * drops items whose id it has just printed (ids of the last two pages are kept, which bounds memory), and
 * stops with a warning on a page it has already seen (a service that ignores `offset`).
 * `position` is the offset of the next item not yet handed out: where a resumed run starts.
 */
export class Paginator<T> implements AsyncIterable<T> {
  position: number;
  total?: number;
  /** Why the walk stopped before the end of the list, when it did (a reader that must count every item asks). */
  incomplete?: string;

  constructor(
    private readonly fetchPage: FetchPage<T>,
    private readonly opts: {
      pageSize: number;
      startOffset: number;
      idOf: (item: T) => string | undefined;
      io: IO;
      /** What the list is called in warnings, e.g. "high findings". */
      label?: string;
      /** After each page: items read (as an offset) of the total; default: the terminal's progress line. */
      onPage?: (read: number, total: number | undefined) => void;
    },
  ) {
    this.position = opts.startOffset;
  }

  private warn(text: string): void {
    this.opts.io.warn(this.opts.label ? `${this.opts.label}: ${text}` : text);
  }

  private idOf(item: T): string | undefined {
    return item !== null && typeof item === 'object' ? this.opts.idOf(item) : undefined;
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T> {
    for await (const { items, start, ends } of this.batches()) {
      for (let i = 0; i < items.length; i++) {
        this.position = ends ? ends[i]! : start + i + 1;
        yield items[i]!;
      }
    }
  }

  /**
   * The same items a page at a time: output writes a page in one go instead of paying an async step per
   * item. `position` moves to the end of each page as it is handed out (the page is written whole).
   */
  async *pages(): AsyncGenerator<T[]> {
    for await (const { items, start, ends } of this.batches()) {
      this.position = ends ? ends[ends.length - 1]! : start + items.length;
      yield items;
    }
  }

  /**
   * Each page's new items (less those already printed) and where it starts; `ends[i]`, the offset that follows
   * item i (where a resumed run starts), is given only when some were dropped.
   */
  private async *batches(): AsyncGenerator<{ items: T[]; start: number; ends?: number[] }> {
    const progress = this.opts.onPage ? undefined : progressOf(this.opts.io);
    progress?.begin(this.opts.label ?? 'Reading', this.position);
    const onPage = this.opts.onPage ?? progress?.update.bind(progress);
    try {
      yield* this.walk(onPage);
    } finally {
      progress?.end();
    }
  }

  private async *walk(
    onPage: ((read: number, total: number | undefined) => void) | undefined,
  ): AsyncGenerator<{ items: T[]; start: number; ends?: number[] }> {
    let recent = new Set<string>();
    let previous = new Set<string>();
    const seenPages = new Set<string>();
    let warnedTotal = false;
    let dropped = 0;
    // Pages asked for ahead of the one being read, at the offsets they have if each page brings as many
    // items as the one before it.
    let ahead: { offset: number; page: Promise<Page<T>> }[] = [];
    for (;;) {
      const pageStart = this.position;
      const page = await (ahead.shift()?.page ?? this.fetchPage(pageStart, this.opts.pageSize));
      if (page.total !== undefined) {
        if (this.total !== undefined && page.total !== this.total && !warnedTotal) {
          this.warn(
            `the total changed from ${this.total} to ${page.total} while paging; the list may be incomplete`,
          );
          warnedTotal = true;
        }
        this.total = page.total;
      }
      if (page.items.length === 0) {
        if (this.total !== undefined && pageStart < this.total) {
          this.incomplete = `no items from offset ${pageStart} of ${this.total}`;
          this.warn(
            `the service sent no items from offset ${pageStart} of ${this.total}; the list may be incomplete`,
          );
        }
        break;
      }
      // Items without ids cannot be told apart one by one: a page identical to one already read means the
      // service ignores offset, and following it would loop forever. (Items with ids are checked below.)
      const ids = page.items.map((item) => this.idOf(item));
      if (ids.every((id) => id === undefined)) {
        const fingerprint = createHash('sha256').update(JSON.stringify(page.items)).digest('base64');
        if (seenPages.has(fingerprint)) {
          this.incomplete = 'a page already read came again';
          this.warn('the service sent a page already read (it may ignore offset); stopping');
          break;
        }
        seenPages.add(fingerprint);
      }
      // Usually nothing is dropped and the page is handed on as it came.
      let drop: boolean[] | undefined;
      for (let i = 0; i < ids.length; i++) {
        const id = ids[i];
        if (id === undefined) continue;
        if (recent.has(id) || previous.has(id)) (drop ??= [])[i] = true;
        else recent.add(id);
      }
      let fresh = page.items;
      let ends: number[] | undefined;
      if (drop) {
        fresh = [];
        ends = [];
        for (let i = 0; i < page.items.length; i++) {
          if (drop[i]) {
            dropped++;
            continue;
          }
          fresh.push(page.items[i]!);
          ends.push(pageStart + i + 1);
        }
      }
      // A page that ended elsewhere than predicted (it was short) leaves the pages asked for past it unused.
      const step = page.items.length;
      if (ahead.length > 0 && ahead[0]!.offset !== pageStart + step) ahead = [];
      if (fresh.length > 0 && this.total !== undefined && step <= this.opts.pageSize) {
        // The next pages are asked for while this one is written: the service prepares one while cssctl reads
        // the other, and an export waits on neither in turn. A failure surfaces when its page is read. After
        // a short page (fewer items than its limit) only the next one: where the one after starts is a guess.
        const full = step === (page.limit ?? this.opts.pageSize);
        let at = ahead.at(-1)?.offset ?? pageStart;
        while (ahead.length < (full ? PAGES_AHEAD : 1) && (at += step) < this.total) {
          const next = this.fetchPage(at, this.opts.pageSize);
          next.catch(() => undefined);
          ahead.push({ offset: at, page: next });
        }
      }
      if (fresh.length > 0) yield { items: fresh, start: pageStart, ends };
      this.position = pageStart + page.items.length;
      onPage?.(this.position, this.total);
      if (fresh.length === 0) {
        this.incomplete = 'a page brought nothing new';
        this.warn('the service returned a page of items already printed; stopping');
        break;
      }
      previous = recent;
      recent = new Set();
      if (this.total !== undefined && this.position >= this.total) break;
      // More items than asked for: the service ignored `limit` and sent the whole list.
      if (this.total === undefined && page.items.length > this.opts.pageSize) break;
    }
    if (dropped > 0) this.warn(`dropped ${dropped} item(s) already printed (the list changed while paging)`);
  }
}
