// Sources that follow the service's pages: one page (with the table's hint) or `--all`, streamed. Every list
// command reads through here.
import type { Context } from '../../core/context.js';
import { ApiError } from '../../core/errors.js';
import type { IO } from '../../core/io.js';
import type { Formats, PageInfo } from '../../core/format.js';
import {
  WIDE_LIST_OFFER,
  chooseFormat,
  parseColumns,
  type Column,
  type ListSource,
  type Offer,
} from '../../core/output/index.js';
import { Paginator, idOfObject, type FetchPage, type Page } from '../../api/paginate.js';
import { resumeCommand } from '../../core/resume.js';
import { objectsOnly } from '../stages.js';

export interface ListOptions {
  limit?: number;
  offset?: number;
  all?: boolean;
  /** --columns: checked by parseColumns before any request, the fields it names once the first page is read. */
  columns?: string;
}

export interface ListSpec<T> {
  /** Plural noun for messages: "connections". */
  noun: string;
  /** "connections list", for messages (default: "<noun> list"). */
  command?: string;
  columns: Column<T>[];
  fetch: FetchPage<T>;
  idOf: (item: T) => string | undefined;
  /** Formats beyond the standard four (findings: sarif…), and the offer they make up. */
  formats?: Formats<T>;
  offer?: Offer;
  /** The items to list when the command reads them its own way (a filter of cssctl's): else its pages. */
  source?: ListSource<T>;
}

/**
 * `--all` asks for pages this large; a service with a smaller cap answers fewer items per page (and says so
 * in its `limit` echo), which the paginator copes with. A service that refuses the size gets ALL_FALLBACK.
 */
export const ALL_PAGE_SIZE = 1000;
const ALL_FALLBACK = 100;

/** The first page of `--all`, retried once at a common size if the service refuses the large one. */
export function withPageSizeFallback<T>(fetch: FetchPage<T>, userLimit: number | undefined): FetchPage<T> {
  let size = userLimit ?? ALL_PAGE_SIZE;
  let first = true;
  return async (offset) => {
    try {
      return await fetch(offset, size);
    } catch (err) {
      const refused =
        err instanceof ApiError &&
        (err.status === 400 || err.status === 422) &&
        /limit/i.test(`${err.field ?? ''} ${err.detail}`);
      if (!first || userLimit !== undefined || !refused) throw err;
      size = ALL_FALLBACK;
      return await fetch(offset, size);
    } finally {
      first = false;
    }
  };
}

/**
 * Every page of a list, as the one way a Paginator is set up: from `offset` (else 0), `limit` items a page (else
 * ALL_PAGE_SIZE, the first page retried at a common size if the service refuses it), items told apart by `idOf`
 * (else their `id`), its warnings prefixed with `label`.
 */
export function readPages<T>(
  io: IO,
  fetch: FetchPage<T>,
  opts: { limit?: number; offset?: number; idOf?: (item: T) => string | undefined; label?: string } = {},
): Paginator<T> {
  return new Paginator<T>(withPageSizeFallback(fetch, opts.limit), {
    pageSize: opts.limit ?? ALL_PAGE_SIZE,
    startOffset: opts.offset ?? 0,
    idOf: opts.idOf ?? ((item) => idOfObject(item)),
    io,
    label: opts.label,
  });
}

/** One page as a list source: it knows where it started and of how many, for the table's hint. */
export function singlePage<T>(
  fetch: () => Promise<Page<T>>,
  offset: number,
  next?: (shown: number) => string,
) {
  let page: Page<T> | undefined;
  const source: ListSource<T> = {
    async *[Symbol.asyncIterator]() {
      page = await fetch();
      yield* page.items;
    },
    page: async (): Promise<PageInfo | undefined> =>
      page && { offset, total: page.total, next: next?.(offset + page.items.length) },
  };
  return source;
}

/** `--all` from `offset` as a list source whose resume command carries the offset it stopped at. */
export function allPages<T>(
  ctx: Pick<Context, 'io' | 'argv'>,
  spec: Pick<ListSpec<T>, 'fetch' | 'idOf'>,
  opts: ListOptions,
) {
  const pager = readPages(ctx.io, spec.fetch, { limit: opts.limit, offset: opts.offset, idOf: spec.idOf });
  const source: ListSource<T> = {
    [Symbol.asyncIterator]: () => pager[Symbol.asyncIterator](),
    pages: () => pager.pages(),
    resume: () => resumeCommand(ctx.argv, [['--all'], ['--offset', String(pager.position)]]),
  };
  return source;
}

/**
 * Every list command: one page (with a hint when there are more), or `--all` streamed page by page, leaving
 * out items that are not objects. On Ctrl-C during `--all`, the renderer prints the command that resumes where
 * output stopped (the source's resume()).
 */
export async function pagedList<T>(ctx: Context, opts: ListOptions, spec: ListSpec<T>) {
  const format = chooseFormat(
    await ctx.settings(),
    spec.offer ?? WIDE_LIST_OFFER,
    spec.command ?? `${spec.noun} list`,
  );
  return {
    source: objectsOnly(ctx.io, spec.source ?? pagesSource(ctx, opts, spec, spec.noun)),
    format,
    columns: spec.columns,
    choice: parseColumns(opts.columns, format),
    chosen: opts.columns !== undefined,
    // Every list command takes --columns (withListOptions).
    columnsOption: true,
    noun: spec.noun,
    formats: spec.formats,
  };
}

/** `--all` streamed page by page, or one page (a spinner while it is fetched; the table gives the hint). */
export function pagesSource<T>(
  ctx: Context,
  opts: ListOptions,
  spec: Pick<ListSpec<T>, 'fetch' | 'idOf'>,
  noun: string,
): ListSource<T> {
  if (opts.all) return allPages(ctx, spec, opts);
  const offset = opts.offset ?? 0;
  return singlePage(async () => {
    const spinner = await ctx.io.spinner(`Fetching ${noun}…`);
    try {
      return await spec.fetch(offset, opts.limit as number);
    } finally {
      spinner.stop();
    }
  }, offset);
}
