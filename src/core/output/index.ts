import type { Settings } from '../settings.js';
import { InterruptedError, UsageError } from '../errors.js';
import type { Column, Formats, Formatter, LeftOut, PageInfo, ReportAbout } from '../format.js';
import type { IO } from '../io.js';
import { terminalText } from '../terminal-text.js';
import { csvCell, valueText } from './cells.js';
import { csv } from './csv.js';
import { json } from './json.js';
import { ndjson } from './ndjson.js';
import { unofferedFormat, type Offer } from './offer.js';
import { PIPE_CELL_WIDTH, shortTime, table } from './table.js';

export type { Column, PageInfo } from '../format.js';
export { LIST_OFFER, STANDARD_FORMATS, WIDE_LIST_OFFER, unofferedFormat, type Offer } from './offer.js';
export { csvCell, csvField, valueText } from './cells.js';
export { columnName, selectColumns } from './columns.js';
export { JsonArrayWriter } from './json.js';

export function standardFormats<T>(): Formats<T> {
  return { table, wide: (ctx) => table({ ...ctx, wide: true }), json, ndjson, csv };
}

/**
 * The format to write: -o/--json when given (it must be offered), else the profile's `output` when this
 * command offers it, else the command's own default.
 */
export function chooseFormat(settings: Settings, offer: Offer, command: string): string {
  const f = settings.output;
  if (offer.names.includes(f)) return settings.sources.output === 'default' ? offer.default : f;
  if (settings.sources.output === 'flag') throw unofferedFormat(f, offer, command);
  return offer.default;
}

export type Items<T> = Iterable<T> | AsyncIterable<T>;

/**
 * An item stream that knows where it stands: what part of the list a single page was (for the table's
 * hint) and, after an interruption, the command line that resumes where the output stopped.
 */
export interface ListSource<T> extends AsyncIterable<T> {
  page?(): Promise<PageInfo | undefined>;
  /** The items read but left out of the stream (accepted risk), so that the page hint counts what was read. */
  leftOut?(): LeftOut | undefined;
  resume?(): string | undefined;
  /** The same items a page at a time, when the source has pages (written a page per step). */
  pages?(): AsyncIterable<T[]>;
}

export interface ListOutput<T> {
  format: string;
  columns: Column<T>[];
  /** The columns were chosen with --columns (selectColumns): all shown, in that order. */
  chosen?: boolean;
  /** The command takes --columns (the hint about columns left out names it). */
  columnsOption?: boolean;
  /** The noun for "No connections found." */
  noun: string;
  /** The formats to choose from (default: table, json, ndjson, csv). */
  formats?: Formats<T>;
  failOn?: string;
  /** What is reported (html's header). */
  about?: ReportAbout;
  /** Aborted on Ctrl-C. */
  signal?: AbortSignal;
}

/**
 * Writes a list in the chosen format from one item stream; returns how many items were written. The
 * formatter is closed whether the stream ends or stops (so after Ctrl-C json stays one valid array and a table
 * writes the rows it held; after an error json is left open, never passing for the whole list); after Ctrl-C
 * the error names the command that resumes.
 */
export async function writeList<T>(
  io: IO,
  items: Items<T> | ListSource<T>,
  out: ListOutput<T>,
): Promise<number> {
  const factory = (out.formats ?? standardFormats<T>())[out.format];
  if (!factory) throw new UsageError(`-o ${out.format} is not available for ${out.noun}`);
  const source = items as Partial<ListSource<T>>;
  // Made at the first item (or at the end): a listing that fails before its first item writes nothing, not an
  // empty document that a pipeline would take for an empty list.
  let formatter: Formatter<T> | undefined;
  const open = () =>
    (formatter ??= factory({
      io,
      // Gathered into 64 KiB writes (src/core/sink.ts); flushed when the stream pauses and at the end.
      write: (s) => io.outBatched(s),
      columns: out.columns,
      chosen: out.chosen,
      columnsOption: out.columnsOption,
      noun: out.noun,
      page: source.page ? () => source.page!() : undefined,
      leftOut: source.leftOut ? () => source.leftOut!() : undefined,
      failOn: out.failOn,
      about: out.about,
    }));
  let count = 0;
  try {
    if (source.pages) {
      for await (const batch of source.pages()) {
        if (batch.length === 0) continue;
        const f = open();
        if (f.items) await f.items(batch);
        else for (const item of batch) await f.item(item);
        count += batch.length;
        // Backpressure: waits only while stdout is full; a write error stops the listing here.
        const full = io.outReady();
        if (full) await full;
      }
    } else {
      for await (const item of items) {
        await open().item(item);
        count++;
        const full = io.outReady();
        if (full) await full;
      }
    }
  } catch (err) {
    const interrupted = err instanceof InterruptedError || out.signal?.aborted === true;
    await formatter?.end({ complete: false, count, failed: !interrupted });
    io.flushOut(); // what was written goes out before the error or the resume hint
    const resume = interrupted ? source.resume?.() : undefined;
    if (resume) throw new InterruptedError(`interrupted; resume with: ${resume}`);
    throw err;
  }
  const formatter_ = open();
  await formatter_.end({ complete: true, count });
  io.flushOut();
  return count;
}
/**
 * Whether a record's field holds a time: its key ends in `_at`, as the service names them (`created_at`,
 * `started_at`, `completed_at`, `expires_at`). A table shows it as a list table shows a `time` column: local
 * `2026-11-26 16:34` (shortTime); `-o wide` and the other formats keep the service's text.
 */
export function isTimeKey(key: string): boolean {
  return key.endsWith('_at');
}

/** A single record: key/value lines for a table, the object itself otherwise. */
export async function writeObject(
  io: IO,
  format: string,
  obj: Record<string, unknown>,
  fields?: [label: string, key: string][],
): Promise<void> {
  switch (format) {
    case 'json':
      io.out(`${JSON.stringify(obj, null, 2)}\n`);
      return;
    case 'ndjson':
      io.out(`${JSON.stringify(obj)}\n`);
      return;
    case 'csv': {
      // Keys come from the service too: a key is a text cell like any other.
      const keys = fields ? fields.map(([, k]) => k) : Object.keys(obj);
      const tty = io.stdoutIsTTY;
      io.out(
        `${keys.map((k) => csvCell(k, tty)).join(',')}\n${keys.map((k) => csvCell(obj[k], tty)).join(',')}\n`,
      );
      return;
    }
    case 'table':
    case 'wide': {
      // Keys come from the service too: sanitised like the values.
      const rows = (fields ?? Object.keys(obj).map((k) => [k, k] as [string, string])).map(
        ([label, key]) => [terminalText(label), key] as const,
      );
      const { default: utils } = await import('cli-table3/src/utils.js');
      const width = Math.max(0, ...rows.map(([l]) => utils.strlen(l)));
      const cols = (io.stdout as { columns?: number }).columns;
      const room = io.stdoutIsTTY && cols ? Math.max(cols - width - 3, 20) : PIPE_CELL_WIDTH;
      for (const [label, key] of rows) {
        const v = obj[key];
        if (v === undefined || v === null || v === '') continue;
        const shown = terminalText(valueText(v));
        const text = utils.truncate(format === 'table' && isTimeKey(key) ? shortTime(shown) : shown, room);
        io.out(`${io.color.bold(label + ' '.repeat(width - utils.strlen(label)))}  ${text}\n`);
      }
      return;
    }
    default:
      // A report format saved in the profile (an -o flag was checked before): a record shows as a table.
      return writeObject(io, 'table', obj, fields);
  }
}
