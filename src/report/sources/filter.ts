// `--connection` and `--status` (cli-contract.md §15): filters the service does not have (it filters findings by
// severity and scan only), applied by cssctl while it pages. Positions stay those of the service's list — what
// was read — so `--offset`, the next page's offset and a resumed `--all` all count the same items, and the table's
// hint says how many were read, how many are shown and how many the filter left out.
import { ALL_PAGE_SIZE, allPages, withPageSizeFallback, type ListOptions } from './pages.js';
import { idOfObject, type Page } from '../../api/paginate.js';
import type { Context } from '../../core/context.js';
import type { PageInfo } from '../../core/format.js';
import type { ListSource } from '../../core/output/index.js';
import { progressOf } from '../../core/progress.js';

/** What a filter keeps: items whose field (any case, trimmed) is one of the values given. */
export interface FilterSpec {
  /** `--connection`: the item's `connection_alias`. */
  connection?: readonly string[];
  /** `--status`: the item's own `status`. */
  status?: readonly string[];
}

export interface ItemFilter {
  keep(item: unknown): boolean;
  /** `--connection prod,staging --status open`: what the hint names. */
  flags: string;
}

const FIELDS = [
  ['connection', 'connection_alias'],
  ['status', 'status'],
] as const;

const norm = (v: unknown) =>
  typeof v === 'string' ? v.trim().toLowerCase() : typeof v === 'number' ? String(v) : undefined;

/** The filter the options ask for, or undefined when they ask for none. */
export function itemFilter(spec: FilterSpec): ItemFilter | undefined {
  const tests: ((item: Record<string, unknown>) => boolean)[] = [];
  const flags: string[] = [];
  for (const [option, field] of FIELDS) {
    const values = spec[option];
    if (values === undefined || values.length === 0) continue;
    const wanted = new Set(values.map((v) => v.trim().toLowerCase()));
    tests.push((item) => {
      const v = norm(item[field]);
      return v !== undefined && wanted.has(v);
    });
    flags.push(`--${option} ${values.join(',')}`);
  }
  if (tests.length === 0) return undefined;
  return {
    keep: (item) =>
      item !== null && typeof item === 'object' && tests.every((t) => t(item as Record<string, unknown>)),
    flags: flags.join(' '),
  };
}

/** What the table's hint says of the items the filter left out. */
export function filteredWhy(filter: ItemFilter): string {
  return `not matching ${filter.flags} (filtered by cssctl, not by the service)`;
}

/**
 * A stream narrowed by the filter (with `--all`, and where every item is read): the source's resume command is
 * kept (argv holds the filter flags, and positions are the service's), and `page()` says how many items were
 * read and left out (with no total: there is no next page to name), for the table's hint.
 */
export function filterStage<T>(source: ListSource<T>, filter: ItemFilter, offset = 0): ListSource<T> {
  let read = 0;
  let kept = 0;
  const out: ListSource<T> = {
    async *[Symbol.asyncIterator]() {
      for await (const item of source) {
        read++;
        if (!filter.keep(item)) continue;
        kept++;
        yield item;
      }
    },
    page: async () => ({ offset, read, filtered: { left: read - kept, why: filteredWhy(filter) } }),
  };
  if (source.pages) {
    const pages = source.pages.bind(source);
    out.pages = async function* () {
      for await (const batch of pages()) {
        read += batch.length;
        const keep = batch.filter((i) => filter.keep(i));
        kept += keep.length;
        yield keep;
      }
    };
  }
  if (source.resume) out.resume = source.resume.bind(source);
  return out;
}

/** One list of the service (one severity's, or the only one): its pages, and items it should not have sent. */
export interface Segment<T> {
  fetch: (offset: number, limit: number | undefined) => Promise<Page<T>>;
  /** Drops what the query should not have returned (a service that ignores the severity filter). */
  sane?: (item: T) => boolean;
}

/**
 * One page of a filtered list: the service's pages are read from `offset` until `limit` items match (the
 * service's own page size when no `--limit` is given: the first answer's `limit`), or the list ends. Several
 * segments (one per severity) are one list, in order: `offset` counts across them, as `findings list
 * --severity a,b --offset n` does without a filter. `page()` gives where the next page starts: after the last
 * item shown.
 */
export function filteredPage<T>(
  ctx: Pick<Context, 'io'>,
  segments: readonly Segment<T>[],
  filter: ItemFilter,
  opts: { offset?: number; limit?: number },
  noun: string,
): ListSource<T> {
  const start = opts.offset ?? 0;
  const totals = new Map<number, number | undefined>();
  let position = start;
  let kept = 0;
  let ended = false;
  const totalOf = async (i: number) => {
    if (!totals.has(i)) totals.set(i, (await segments[i]!.fetch(0, 1)).total);
    return totals.get(i);
  };
  const source: ListSource<T> = {
    async *[Symbol.asyncIterator]() {
      const progress = progressOf(ctx.io);
      progress?.begin(noun, 0);
      try {
        // Where `offset` falls: the segments before it are skipped by their totals.
        let base = 0;
        let seg = 0;
        for (; seg < segments.length - 1; seg++) {
          const t = await totalOf(seg);
          if (t === undefined || start < base + t) break;
          base += t;
        }
        let want = opts.limit;
        let first = true;
        // Ids of the last two pages: an item the service sends twice (the list moved) is shown once.
        let recent = new Set<string>();
        let previous = new Set<string>();
        let lastBare: string | undefined;
        for (; seg < segments.length; seg++) {
          const s = segments[seg]!;
          // After the first page (at the service's own size, or --limit: it sets how many a page shows), large
          // pages: a filter that keeps few items reads many.
          const large = withPageSizeFallback((offset, limit) => s.fetch(offset, limit), undefined);
          let at = Math.max(0, start - base);
          for (;;) {
            const page = first ? await s.fetch(at, opts.limit) : await large(at, ALL_PAGE_SIZE);
            if (first && want === undefined) want = page.limit ?? Math.max(page.items.length, 1);
            first = false;
            totals.set(seg, page.total);
            let fresh = 0;
            for (let i = 0; i < page.items.length; i++) {
              const item = page.items[i]!;
              position = base + at + i + 1;
              const id = idOfObject(item);
              if (id !== undefined) {
                if (recent.has(id) || previous.has(id)) continue;
                recent.add(id);
              }
              fresh++;
              if ((s.sane && !s.sane(item)) || !filter.keep(item)) continue;
              kept++;
              yield item;
              if (kept >= want!) {
                // The page is full; it ends at the end of the list when nothing is left after this item.
                const t = page.total;
                ended = seg === segments.length - 1 && t !== undefined && at + i + 1 >= t;
                return;
              }
            }
            const bare = recent.size === 0;
            previous = recent;
            recent = new Set();
            at += page.items.length;
            position = base + at;
            progress?.update(position - start, undefined);
            const t = page.total;
            if (page.items.length === 0 || (t !== undefined && at >= t)) break;
            // Items without ids cannot be told apart: a page identical to the one before is the same page again.
            const text = bare ? JSON.stringify(page.items) : undefined;
            const same = text !== undefined && text === lastBare;
            lastBare = text;
            if (fresh === 0 || same) {
              // A service that ignores offset would send the same page for ever.
              ctx.io.warn(`the service returned a page of ${noun} already read; stopping`);
              break;
            }
          }
          base += totals.get(seg) ?? at;
          position = base;
        }
        ended = true;
      } finally {
        progress?.end();
      }
    },
    async page(): Promise<PageInfo | undefined> {
      let total: number | undefined = 0;
      for (let i = 0; i < segments.length; i++) {
        const t = await totalOf(i);
        if (t === undefined) {
          total = undefined;
          break;
        }
        total += t;
      }
      // A list whose length the service does not say: the walk's end is the total.
      if (total === undefined && ended) total = position;
      const read = position - start;
      return { offset: start, total, read, filtered: { left: read - kept, why: filteredWhy(filter) } };
    },
  };
  return source;
}

/** A list of one service query, filtered by cssctl: one page of what the filter keeps, or `--all`. */
export function filteredList<T>(
  ctx: Pick<Context, 'io' | 'argv'>,
  opts: ListOptions,
  spec: {
    fetch: (offset: number, limit: number | undefined) => Promise<Page<T>>;
    idOf: (item: T) => string | undefined;
  },
  filter: ItemFilter,
  noun: string,
): ListSource<T> {
  if (opts.all)
    return filterStage(allPages(ctx, { fetch: spec.fetch, idOf: spec.idOf }, opts), filter, opts.offset ?? 0);
  return filteredPage(ctx, [{ fetch: spec.fetch }], filter, opts, noun);
}
