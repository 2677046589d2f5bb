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
import { loadTextWidth } from './text-width.js';

export type { Column, PageInfo } from '../format.js';
export { LIST_OFFER, STANDARD_FORMATS, WIDE_LIST_OFFER, unofferedFormat, type Offer } from './offer.js';
export { csvCell, csvField, valueText } from './cells.js';
export {
  columnName,
  isTimeKey,
  csvHeader,
  parseColumns,
  resolveColumns,
  resolveWithoutData,
  type ColumnChoice,
} from './columns.js';
import { Unseen, isTimeKey, resolveColumns, resolveWithoutData, type ColumnChoice } from './columns.js';
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
  /**
   * --columns (parseColumns, checked before any request): resolved against `columns`, and, when it names fields
   * or is `all`, against the first page's items before anything is written (exit 2 for an unknown name).
   */
  choice?: ColumnChoice;
  /** The columns were chosen with --columns: all shown, in that order. */
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
  let source = items as Partial<ListSource<T>> & Items<T>;
  // --columns naming fields (or all): known once the first page is read, before anything is written.
  let columns = resolveWithoutData(out.columns, out.choice);
  // Made at the first item (or at the end): a listing that fails before its first item writes nothing, not an
  // empty document that a pipeline would take for an empty list.
  let formatter: Formatter<T> | undefined;
  const open = () =>
    (formatter ??= factory({
      io,
      // Gathered into 64 KiB writes (src/core/sink.ts); flushed when the stream pauses and at the end.
      write: (s) => io.outBatched(s),
      columns: columns ?? out.columns,
      chosen: out.chosen ?? out.choice !== undefined,
      columnsOption: out.columnsOption,
      noun: out.noun,
      page: source.page ? () => source.page!() : undefined,
      leftOut: source.leftOut ? () => source.leftOut!() : undefined,
      failOn: out.failOn,
      about: out.about,
    }));
  let count = 0;
  // --columns all: fields that items after the first page carry and the first page did not (said at the end).
  let later: LaterFields | undefined;
  // --columns fields the first page did not carry (said at the end when no item did).
  let unseen: Unseen | undefined;
  try {
    if (columns === undefined) {
      const sampled = await firstPage(source);
      columns = resolveColumns(out.columns, out.choice, sampled.sample, out.noun);
      source = sampled.source;
      if (out.choice?.all) later = new LaterFields(columns, sampled.sample.length);
      unseen = Unseen.of(columns, out.choice, sampled.sample);
    }
    if (source.pages) {
      for await (const batch of source.pages()) {
        if (batch.length === 0) continue;
        later?.see(batch);
        unseen?.see(batch);
        const f = open();
        if (f.items) await f.items(batch);
        else for (const item of batch) await f.item(item);
        count += batch.length;
        // Backpressure: waits only while stdout is full; a write error stops the listing here.
        const full = io.outReady();
        if (full) await full;
      }
    } else {
      for await (const item of source) {
        later?.see([item]);
        unseen?.see([item]);
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
  later?.warn(io);
  unseen?.warn(io);
  return count;
}

/**
 * A line of a key/value table: its label, the record's key, and whether the value is a time (default: the key
 * ends in `_at`), shown as `YYYY-MM-DD HH:MM` in local time as every table shows times.
 */
export type FieldLine = [label: string, key: string, time?: boolean];

/**
 * The one style of key in every key/value table (cli-contract.md §15): upper case, as the column headers of the
 * lists and most records have it, words apart (`base_url`, `Base URL` → `BASE URL`).
 */
export function keyLabel(label: string): string {
  return label.replace(/_/g, ' ').toUpperCase();
}

/**
 * `--columns all` takes the fields of the first page; a field that only later items carry is not a column, and
 * a warning names it (at most 10), so that it is never left out in silence.
 */
class LaterFields {
  private readonly known: Set<string>;
  private readonly found = new Set<string>();
  private skip: number;
  constructor(columns: readonly Pick<Column<never>, 'field' | 'header'>[], firstPage: number) {
    this.known = new Set(columns.map((c) => c.field ?? c.header));
    this.skip = firstPage;
  }
  see(items: readonly unknown[]): void {
    for (const item of items) {
      // The first page's own items made the columns.
      if (this.skip > 0) {
        this.skip--;
        continue;
      }
      if (item === null || typeof item !== 'object' || this.found.size >= 10) continue;
      for (const k of Object.keys(item)) if (!this.known.has(k)) this.found.add(k);
    }
  }
  warn(io: IO): void {
    if (this.found.size === 0) return;
    const names = [...this.found].map((n) => terminalText(n)).join(', ');
    io.warn(
      `--columns all wrote the fields of the first page; later items also carry ${names} (name ${this.found.size === 1 ? 'it' : 'them'} in --columns to write ${this.found.size === 1 ? 'it' : 'them'})`,
    );
  }
}
/**
 * Without pages at hand (a single page; several severities merged), the first page is the items read before the
 * stream ends or this many are held — the size of the pages `--all` asks for.
 */
export const FIRST_PAGE_ITEMS = 1000;

/**
 * Reads the first page of a source (its first non-empty batch of pages(), else up to FIRST_PAGE_ITEMS items) and
 * gives it back with a source that yields the same items again, then the rest: nothing is read twice.
 */
async function firstPage<T>(
  source: Partial<ListSource<T>> & Items<T>,
): Promise<{ sample: T[]; source: Partial<ListSource<T>> & Items<T> }> {
  const keep = <S extends Partial<ListSource<T>>>(out: S): S => {
    if (source.page) out.page = source.page.bind(source);
    if (source.leftOut) out.leftOut = source.leftOut.bind(source);
    if (source.resume) out.resume = source.resume.bind(source);
    return out;
  };
  if (source.pages) {
    const it = source.pages()[Symbol.asyncIterator]();
    let sample: T[] = [];
    let done = false;
    while (sample.length === 0) {
      const r = await it.next();
      if (r.done) {
        done = true;
        break;
      }
      sample = r.value;
    }
    const first = sample;
    const rest: AsyncIterable<T[]> = {
      async *[Symbol.asyncIterator]() {
        if (first.length > 0) yield first;
        if (done) return;
        for (let r = await it.next(); !r.done; r = await it.next()) yield r.value;
      },
    };
    const out = keep({
      pages: () => rest,
      async *[Symbol.asyncIterator]() {
        for await (const batch of rest) yield* batch;
      },
    } as ListSource<T>);
    return { sample, source: out };
  }
  const it = (source as AsyncIterable<T>)[Symbol.asyncIterator]?.() ?? toAsync(source as Iterable<T>);
  const sample: T[] = [];
  let done = false;
  while (sample.length < FIRST_PAGE_ITEMS) {
    const r = await it.next();
    if (r.done) {
      done = true;
      break;
    }
    sample.push(r.value);
  }
  const out = keep({
    async *[Symbol.asyncIterator]() {
      yield* sample;
      if (done) return;
      for (let r = await it.next(); !r.done; r = await it.next()) yield r.value;
    },
  } as ListSource<T>);
  return { sample, source: out };
}

function toAsync<T>(items: Iterable<T>): AsyncIterator<T> {
  const it = items[Symbol.iterator]();
  return { next: async () => it.next() };
}

/** A single record: key/value lines for a table, the object itself otherwise. */
export async function writeObject(
  io: IO,
  format: string,
  obj: Record<string, unknown>,
  fields?: FieldLine[],
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
      const rows = (fields ?? Object.keys(obj).map((k): FieldLine => [k, k])).map(
        ([label, key, time]) => [terminalText(keyLabel(label)), key, time ?? isTimeKey(key)] as const,
      );
      const text = await loadTextWidth();
      const width = Math.max(0, ...rows.map(([l]) => text.width(l)));
      const cols = (io.stdout as { columns?: number }).columns;
      const room = io.stdoutIsTTY && cols ? Math.max(cols - width - 3, 20) : PIPE_CELL_WIDTH;
      for (const [label, key, time] of rows) {
        const v = obj[key];
        if (v === undefined || v === null || v === '') continue;
        const shown = terminalText(valueText(v));
        const cut = text.cut(format === 'table' && time ? shortTime(shown) : shown, room);
        io.out(`${io.color.bold(label + ' '.repeat(width - text.width(label)))}  ${cut}\n`);
      }
      return;
    }
    default:
      // A report format saved in the profile (an -o flag was checked before): a record shows as a table.
      return writeObject(io, 'table', obj, fields);
  }
}
