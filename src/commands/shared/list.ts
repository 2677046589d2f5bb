import type { Context } from '../../core/context.js';
import { InterruptedError } from '../../core/errors.js';
import { writeList, type Column } from '../../core/output.js';
import { LARGEST_PAGE, Paginator, type FetchPage } from '../../api/paginate.js';

export interface ListOptions {
  limit?: number;
  offset?: number;
  all?: boolean;
}

export interface ListSpec<T> {
  /** Plural noun for messages: "connections". */
  noun: string;
  columns: Column<T>[];
  fetch: FetchPage<T>;
  idOf: (item: T) => string | undefined;
}

/**
 * Every list command: one page (with a hint when there are more), or `--all` streamed page by page.
 * On Ctrl-C during `--all`, says which --offset resumes where output stopped.
 */
export async function runList<T>(ctx: Context, opts: ListOptions, spec: ListSpec<T>): Promise<void> {
  const { output } = await ctx.settings();
  const io = ctx.io;
  const offset = opts.offset ?? 0;
  if (opts.all) {
    const pager = new Paginator<T>(spec.fetch, {
      pageSize: opts.limit ?? LARGEST_PAGE,
      startOffset: offset,
      idOf: spec.idOf,
      io,
    });
    try {
      await writeList(io, pager, { format: output, columns: spec.columns, noun: spec.noun });
    } catch (err) {
      if (err instanceof InterruptedError || ctx.signal.aborted) {
        throw new InterruptedError(`interrupted; resume with --all --offset ${pager.position}`);
      }
      throw err;
    }
    return;
  }
  const spinner = await io.spinner(`Fetching ${spec.noun}…`);
  let page;
  try {
    page = await spec.fetch(offset, opts.limit as number);
  } finally {
    spinner.stop();
  }
  await writeList(io, page.items, { format: output, columns: spec.columns, noun: spec.noun });
  const shown = page.items.length;
  if (output === 'table' && page.total !== undefined && offset + shown < page.total && shown > 0) {
    const fmt = (n: number) => n.toLocaleString('en-US');
    io.hint(
      `Showing ${fmt(offset + 1)}–${fmt(offset + shown)} of ${fmt(page.total)} — use --all or --offset ${offset + shown}`,
    );
  }
}
