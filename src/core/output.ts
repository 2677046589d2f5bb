import type { ChalkInstance } from 'chalk';
import type { OutputFormat } from './config.js';
import { UsageError } from './errors.js';
import type { IO } from './io.js';

export interface Column<T> {
  header: string;
  value: (item: T) => unknown;
  /** Colours a table cell when colour is on. */
  style?: (text: string, item: T, color: ChalkInstance) => string;
  /** Shown only when at least one item has a value. */
  optional?: boolean;
}

export type Items<T> = Iterable<T> | AsyncIterable<T>;

export function cellText(v: unknown): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v);
}

/** RFC 4180: quote a field holding a comma, quote or line break; double the quotes inside. */
export function csvField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** JSON.stringify(array, null, 2) written one element at a time, so `--all` streams. */
export class JsonArrayWriter {
  private count = 0;
  constructor(private readonly write: (s: string) => void) {}
  push(item: unknown): void {
    this.write(this.element(item));
  }
  /** The text push() would write for this item (the caller writes it). */
  element(item: unknown): string {
    return this.elements([item]);
  }
  /** The text for several items in a row: one stringify for all of them. */
  elements(items: readonly unknown[]): string {
    if (items.length === 0) return '';
    // V8 indents the elements of the array as they are indented in the whole list ("[\n  …,\n  …\n]"):
    // no second pass over the text to indent it.
    const text = JSON.stringify(items, null, 2);
    const prefix = this.count === 0 ? '[\n' : ',\n';
    this.count += items.length;
    return `${prefix}${text.slice(2, -2)}`;
  }
  end(): void {
    this.write(this.count === 0 ? '[]\n' : '\n]\n');
  }
}

export interface ListOutput<T> {
  format: OutputFormat;
  columns: Column<T>[];
  /** The noun for "No connections found." */
  noun: string;
}

/** Writes a list in the chosen format from one item stream; returns how many items were written. */
export async function writeList<T>(io: IO, items: Items<T>, out: ListOutput<T>): Promise<number> {
  try {
    return await writeItems(io, items, out);
  } finally {
    // What is gathered goes out before anything else is said (a Ctrl-C resume hint, an error).
    io.flushOut();
  }
}

/** A source that can hand over its items a page at a time (the Paginator). */
interface Paged<T> {
  pages(): AsyncIterable<T[]>;
}

/** The items in batches: a page at a time from a paginator, an array whole, anything else item by item. */
async function* batchesOf<T>(items: Items<T>): AsyncGenerator<T[]> {
  if (typeof (items as Partial<Paged<T>>).pages === 'function') yield* (items as unknown as Paged<T>).pages();
  else if (Array.isArray(items)) yield items as T[];
  else for await (const item of items) yield [item];
}

async function writeItems<T>(io: IO, items: Items<T>, out: ListOutput<T>): Promise<number> {
  let n = 0;
  // One string per batch, handed to the sink at once; waiting on stdout only when it is full.
  const each = async (text: (batch: T[]) => string) => {
    for await (const batch of batchesOf(items)) {
      n += batch.length;
      io.outBatched(text(batch));
      const full = io.outReady();
      if (full) await full;
    }
  };
  switch (out.format) {
    case 'json': {
      const w = new JsonArrayWriter((s) => io.outBatched(s));
      try {
        await each((batch) => w.elements(batch));
      } finally {
        w.end(); // even when interrupted, so what was written parses
      }
      return n;
    }
    case 'ndjson':
      await each((batch) => {
        let text = '';
        for (const item of batch) text += `${JSON.stringify(item)}\n`;
        return text;
      });
      return n;
    case 'csv': {
      io.outBatched(`${out.columns.map((c) => csvField(c.header.toLowerCase())).join(',')}\n`);
      await each((batch) => {
        let text = '';
        for (const item of batch)
          text += `${out.columns.map((c) => csvField(cellText(c.value(item)))).join(',')}\n`;
        return text;
      });
      return n;
    }
    case 'table': {
      // Streamed in batches, so `--all` keeps memory flat and the first rows show at once.
      const table = new TableWriter(io, out.columns);
      let batch: T[] = [];
      for await (const item of items) {
        batch.push(item);
        n++;
        if (batch.length >= TABLE_BATCH) {
          await table.write(batch);
          batch = [];
        }
      }
      await table.write(batch);
      if (n === 0) io.notice(`No ${out.noun} found.`);
      return n;
    }
    case 'sarif':
      throw new UsageError('sarif output is available for findings only');
  }
}

const TABLE_BATCH = 100;

const NO_BORDERS = Object.fromEntries(
  [
    'top',
    'top-mid',
    'top-left',
    'top-right',
    'bottom',
    'bottom-mid',
    'bottom-left',
    'bottom-right',
    'left',
    'left-mid',
    'mid',
    'mid-mid',
    'right',
    'right-mid',
    'middle',
  ].map((k) => [k, '']),
);

/**
 * A borderless cli-table3 table written batch by batch. The first batch decides which optional columns
 * show and how wide each column is; later batches keep those widths (a longer cell is cut with '…').
 */
export class TableWriter<T> {
  private cols?: Column<T>[];
  private widths?: number[];

  constructor(
    private readonly io: IO,
    private readonly columns: Column<T>[],
  ) {}

  async write(items: T[]): Promise<void> {
    if (items.length === 0) return;
    const { default: Table } = await import('cli-table3');
    const first = this.cols === undefined;
    const cols = (this.cols ??= this.columns.filter(
      (c) => !c.optional || items.some((i) => cellText(c.value(i)) !== ''),
    ));
    const table = new Table({
      head: first ? cols.map((c) => this.io.color.bold(c.header)) : [],
      colWidths: this.widths ? [...this.widths] : [],
      style: { head: [], border: [], 'padding-left': 0, 'padding-right': 2 },
      chars: NO_BORDERS,
    });
    for (const item of items) {
      table.push(
        cols.map((c) => {
          const text = sanitizeCell(cellText(c.value(item)));
          return c.style ? c.style(text, item, this.io.color) : text;
        }),
      );
    }
    const text = table.toString();
    // cli-table3 fills in the widths it computed; the next batches reuse them.
    this.widths ??= [...(table.options.colWidths as number[])];
    this.io.out(`${text.replace(/[ \t]+$/gm, '')}\n`); // a batch is already one large write
    await this.io.outReady();
  }
}

/** Control characters from the service must not drive the user's terminal. */
function sanitizeCell(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ');
}

/** A single record: key/value lines for a table, the object itself otherwise. */
export async function writeObject(
  io: IO,
  format: OutputFormat,
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
      const keys = fields ? fields.map(([, k]) => k) : Object.keys(obj);
      io.out(`${keys.map(csvField).join(',')}\n${keys.map((k) => csvField(cellText(obj[k]))).join(',')}\n`);
      return;
    }
    case 'table': {
      const rows = fields ?? Object.keys(obj).map((k) => [k, k] as [string, string]);
      const width = Math.max(...rows.map(([l]) => l.length));
      for (const [label, key] of rows) {
        const v = obj[key];
        if (v === undefined || v === null || v === '') continue;
        io.out(`${io.color.bold(label.padEnd(width))}  ${sanitizeCell(cellText(v))}\n`);
      }
      return;
    }
    case 'sarif':
      throw new UsageError('sarif output is available for findings only');
  }
}
