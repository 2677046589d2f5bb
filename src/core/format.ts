import type { ChalkInstance } from 'chalk';
import type { IO } from './io.js';

/** A table/csv column of a list command. */
export interface Column<T> {
  header: string;
  value: (item: T) => unknown;
  /** Colours a table cell when colour is on. */
  style?: (text: string, item: T, color: ChalkInstance) => string;
  /** Shown only when at least one item has a value. */
  optional?: boolean;
  /** The name `--columns` knows it by (default: the header in lower case). */
  name?: string;
  /**
   * The service's field (or dotted path) the column shows: the csv header (cli-contract.md §14: the service's
   * field names), and a second name `--columns` knows it by.
   */
  field?: string;
  /** Shown only with `-o wide`, or when named in `--columns`. */
  wide?: boolean;
  /**
   * On a terminal too narrow for every column (not `-o wide`): columns with a rank are left out, the highest
   * first, rather than cutting the columns people read below their `min`.
   */
  drop?: number;
  /** Cut only as a last resort: an id, a date, a number or a status that is cut is no use. */
  keep?: boolean;
  /** The width a text column may be cut to before a column with a `drop` rank is left out (default 6). */
  min?: number;
  /** An ISO timestamp: `2025-11-25 08:41` (local time) in a table; as the service gave it otherwise. */
  time?: boolean;
  /**
   * What a table shows in the cell when it differs from `value`, which csv writes (`3.7` for a risk score
   * of 3.7 or 3.70; `—` for the counts of a scan that failed). Undefined: the value.
   */
  tableValue?: (item: T) => unknown;
}

/** What a formatter may use. `write` is stdout (data only); messages go through `io` to stderr. */
export interface FormatterContext<T> {
  io: IO;
  write: (text: string) => void;
  columns: Column<T>[];
  /** Plural noun for messages such as "No connections found." */
  noun: string;
  /**
   * What part of the list a single page showed, for the table's "Showing 1–50 of 1,234" hint (asked after
   * the last item; undefined with `--all`).
   */
  page?: () => Promise<PageInfo | undefined>;
  /** The items of the stream that the ignore file left out (asked after the last item), for the same hint. */
  leftOut?: () => LeftOut | undefined;
  /** The `--fail-on` threshold, for report formats that mark failures (junit); undefined when not given. */
  failOn?: string;
  /** `-o wide`: every column, full text, whatever the terminal's width. */
  wide?: boolean;
  /** The columns were chosen with `--columns`: shown as asked, none left out. */
  chosen?: boolean;
  /** The command takes `--columns`: a table that leaves columns out on a narrow terminal names it. */
  columnsOption?: boolean;
  /** What is reported, for reports that say so (html). */
  about?: ReportAbout;
}

/** The workspace and what was read ("scan scn_1", "findings list"), for a report's header. */
export interface ReportAbout {
  workspace?: string;
  /** The service's base URL (OCSF's metadata.product). */
  service?: string;
  subject?: string;
  /**
   * The --fail-on gate as the command decides it (asked once every finding is read): whether it is met and by how
   * many findings. A report that shows a verdict (html) gives this one, not a count of its own rows, which
   * --severity may have narrowed and which, in a comparison, hold unchanged findings too.
   */
  verdict?: () => { met: boolean; count: number; threshold: string } | undefined;
  /**
   * In a comparison, when the head was seen (its scan's `completed_at`, else `created_at`, as the service gave
   * it): when a fixed finding's fix was seen (OCSF's Close event). Undefined for a head read from a file.
   */
  fixSeen?: unknown;
}

/** Items a stage left out of what the source read: how many, and why (`ignored by .cssctl-ignore.yaml`). */
export interface LeftOut {
  count: number;
  why: string;
  /** Called once the table's hint has said it, so that the stage does not say it again in a line of its own. */
  told?: () => void;
}

/**
 * Items a filter of cssctl's own left out (`--connection`, `--status`: the service cannot filter by them), of
 * those read from the service's list.
 */
export interface Filtered {
  /** Items read and not shown for the filter (those the ignore file left out are counted apart). */
  left: number;
  why: string;
}

/** A single page of a longer list: it started at `offset` of `total` items. */
export interface PageInfo {
  offset: number;
  total?: number;
  /**
   * How many items of the service's list the page read, when a filter of cssctl's read past what it shows
   * (the next page starts after them); else what was shown and left out.
   */
  read?: number;
  /** A filter of cssctl's narrowed what was read: the hint says so. */
  filtered?: Filtered;
  /** The flag that shows the next page, e.g. `--offset 50`. */
  next?: string;
}

/**
 * Where a single page ended: how many items it read (`shown`, plus those a stage left out: accepted risks), and
 * the offset of the next page while the list goes on — undefined on the last page. The table's hint and the MCP
 * server's `next_offset` both come from here. With no total (a service that does not say), a page as long as
 * `limit` may have a next one, when `limit` is given.
 */
export function pageEnd(
  page: PageInfo | undefined,
  shown: number,
  left?: LeftOut,
  limit?: number,
): { read: number; next?: number } {
  const read = page?.read ?? shown + (left?.count ?? 0);
  const offset = page?.offset ?? 0;
  if (page?.total !== undefined) return offset + read < page.total ? { read, next: offset + read } : { read };
  return limit !== undefined && read > 0 && read >= limit ? { read, next: offset + read } : { read };
}

/**
 * One output format, fed the command's item stream one item at a time (cli-contract.md §3). A format is one
 * file exporting a FormatterFactory; a command only says which formats it offers.
 */
export interface Formatter<T> {
  /** One item, in stream order. */
  item(item: T): void | Promise<void>;
  /** Several items in a row (a page), when the format can write them at once; else item() is called for each. */
  items?(items: T[]): void | Promise<void>;
  /**
   * After the last item, and also when the stream stopped early (Ctrl-C, an error), with `complete: false`.
   * Flushes whatever the formatter holds and closes the document, so that everything written is well-formed.
   * `failed`: stopped by an error, not by Ctrl-C — a document that cannot say it is incomplete (a json array)
   * is then left open, so what was written never passes for the whole answer.
   */
  end(info: { complete: boolean; count: number; failed?: boolean }): void | Promise<void>;
}

export type FormatterFactory<T> = (ctx: FormatterContext<T>) => Formatter<T>;

/** The formats a command offers, by the name given to -o. */
export type Formats<T> = Readonly<Record<string, FormatterFactory<T>>>;
