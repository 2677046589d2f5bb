import { pageEnd, type Column, type Formatter, type FormatterContext } from '../format.js';
import type { IO } from '../io.js';
import { terminalText } from '../terminal-text.js';
import { cellText, valueText } from './cells.js';
import { loadTextWidth } from './text-width.js';

/** Rows are written in batches: the first fixes the columns and their widths, so memory stays flat. */
export const TABLE_BATCH = 100;
/** Off a terminal there is no width to fit: a cell is still cut past this many columns. */
export const PIPE_CELL_WIDTH = 160;
const GAP = 2;
const MIN_WIDTH = 6;

/** Width and truncation as a terminal shows text (East Asian wide characters count double), with a fast path for ASCII. */
async function loadWidths() {
  const text = await loadTextWidth();
  const ascii = /^[\x20-\x7e]*$/;
  return {
    width: (s: string) => (ascii.test(s) ? s.length : text.width(s)),
    cut: (s: string, w: number) =>
      ascii.test(s) ? (s.length <= w ? s : `${s.slice(0, Math.max(0, w - 1))}…`) : text.cut(s, w),
  };
}

/** Cuts the widest column above its floor, one step at a time, until the row fits `budget` or none can give. */
function shrink(start: number[], floors: number[], budget: number): number[] {
  const widths = [...start];
  const total = () => widths.reduce((a, b) => a + b, 0) + GAP * (widths.length - 1);
  while (total() > budget) {
    let widest = -1;
    for (let i = 0; i < widths.length; i++) {
      if ((widths[i] ?? 0) > (floors[i] ?? 0) && (widest < 0 || (widths[i] ?? 0) > (widths[widest] ?? 0)))
        widest = i;
    }
    if (widest < 0) break;
    const w = widths[widest] ?? 0;
    const others = total() - w;
    // Down to the next widest column that can give (or to what fits): text columns end up cut alike, rather
    // than the widest cut to its floor at once while the others stay whole.
    let next = 0;
    for (let i = 0; i < widths.length; i++)
      if (i !== widest && (widths[i] ?? 0) > (floors[i] ?? 0)) next = Math.max(next, widths[i] ?? 0);
    widths[widest] = Math.max(floors[widest] ?? 0, budget - others, Math.min(w - 1, next));
  }
  return widths;
}

const rowWidth = (widths: number[]) => widths.reduce((a, b) => a + b, 0) + GAP * (widths.length - 1);

/**
 * Column widths that fit `budget` columns: the widest columns give way first, none below MIN_WIDTH (or its
 * natural width, when smaller).
 */
export function fitWidths(natural: number[], budget: number): number[] {
  return shrink(
    natural,
    natural.map((n) => Math.min(n, MIN_WIDTH)),
    budget,
  );
}

/** What the layout needs of a column: its natural width and its Column hints (keep, drop, min). */
export interface LayoutColumn {
  natural: number;
  keep?: boolean;
  drop?: number;
  min?: number;
}

/**
 * The columns a terminal `budget` wide shows, and their widths, spent on the columns people read: text
 * columns are cut first, widest first, down to their `min`; when that is not enough, the column with the
 * highest `drop` rank is left out and the fit starts again. With nothing left to drop, text columns are cut
 * down to MIN_WIDTH, and only then the `keep` columns (ids, dates, numbers). Returns the indexes shown.
 */
export function layout(cols: LayoutColumn[], budget: number): { shown: number[]; widths: number[] } {
  let shown = cols.map((_, i) => i);
  const natural = () => shown.map((i) => cols[i]!.natural);
  for (;;) {
    const floors = shown.map((i) => {
      const c = cols[i]!;
      return c.keep ? c.natural : Math.min(c.natural, c.min ?? MIN_WIDTH);
    });
    const widths = shrink(natural(), floors, budget);
    if (rowWidth(widths) <= budget) return { shown, widths };
    const droppable = shown.filter((i) => cols[i]!.drop !== undefined);
    if (droppable.length === 0) break;
    const victim = droppable.reduce((a, b) => ((cols[b]!.drop ?? 0) > (cols[a]!.drop ?? 0) ? b : a));
    shown = shown.filter((i) => i !== victim);
  }
  const textFirst = shrink(
    natural(),
    shown.map((i) => (cols[i]!.keep ? cols[i]!.natural : Math.min(cols[i]!.natural, MIN_WIDTH))),
    budget,
  );
  return {
    shown,
    widths: shrink(
      textFirst,
      natural().map((n) => Math.min(n, MIN_WIDTH)),
      budget,
    ),
  };
}

/** An ISO timestamp as `2025-11-25 08:41` in local time; any other text is left as it is. */
export function shortTime(text: string): string {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(text)) return text;
  const d = new Date(text);
  if (Number.isNaN(d.getTime())) return text;
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
}

function terminalWidth(io: IO): number | undefined {
  const cols = (io.stdout as { columns?: number }).columns;
  return io.stdoutIsTTY && typeof cols === 'number' && cols > 0 ? cols : undefined;
}

/**
 * `table`: a borderless table written batch by batch (widths measured as cli-table3 does). Cells are sanitised
 * (text from the service never drives the terminal); timestamps are shown as `2025-11-25 08:41`. On a
 * terminal the width goes to the columns people read (see layout): text is cut with '…', and on a narrow one
 * the columns ranked to give way are left out. `-o wide` (ctx.wide) shows every column in full, and
 * `--columns` (ctx.chosen) the columns asked for, none left out. Ctrl-C or an error mid-stream still writes
 * the rows held for the batch (end with complete: false).
 */
export function table<T>(ctx: FormatterContext<T>): Formatter<T> {
  const { io } = ctx;
  let cols: Column<T>[] | undefined;
  let widths: number[] | undefined;
  let batch: T[] = [];
  /** The headers of the columns the terminal had no room for, said once at the end. */
  let hidden: string[] = [];

  async function flush(): Promise<void> {
    if (batch.length === 0) return;
    const items = batch;
    batch = [];
    const { width, cut } = await loadWidths();
    const first = cols === undefined;
    cols ??= ctx.columns.filter(
      (c) =>
        ctx.chosen || ((ctx.wide || !c.wide) && (!c.optional || items.some((i) => cellText(c, i) !== ''))),
    );
    const cell = (c: Column<T>, item: T) => {
      const shown =
        c.tableValue && item !== null && typeof item === 'object'
          ? valueText(c.tableValue(item))
          : cellText(c, item);
      const text = terminalText(shown);
      return c.time && !ctx.wide ? shortTime(text) : text;
    };
    let rows = items.map((item) => cols!.map((c) => cell(c, item)));
    if (!widths) {
      const natural = cols.map((c, i) => Math.max(width(c.header), ...rows.map((r) => width(r[i] ?? ''))));
      const room = terminalWidth(io);
      if (room === undefined || ctx.wide) widths = natural.map((n) => Math.min(n, PIPE_CELL_WIDTH));
      else {
        const hints = cols.map((c, i) => ({
          natural: natural[i] ?? 0,
          keep: c.keep,
          min: c.min,
          // Columns asked for by name are all shown.
          drop: ctx.chosen ? undefined : c.drop,
        }));
        const fit = layout(hints, Math.max(room - 1, 20));
        const all = cols;
        hidden = all.filter((_, i) => !fit.shown.includes(i)).map((c) => terminalText(c.header));
        cols = fit.shown.map((i) => all[i]!);
        rows = rows.map((r) => fit.shown.map((i) => r[i] ?? ''));
        widths = fit.widths;
      }
    }
    const w = widths;
    const c = cols;
    // A borderless table: each cell cut to its column and padded to it, two spaces between columns.
    const line = (cells: string[], style: (text: string, i: number) => string) =>
      cells
        .map((text, i) => {
          const shown = cut(text, w[i] ?? 0);
          const pad = i === cells.length - 1 ? 0 : (w[i] ?? 0) + GAP - width(shown);
          return style(shown, i) + ' '.repeat(Math.max(0, pad));
        })
        .join('')
        .trimEnd();
    const out: string[] = [];
    if (first)
      out.push(
        line(
          c.map((col) => col.header),
          (t) => io.color.bold(t),
        ),
      );
    for (const [r, item] of items.entries()) {
      out.push(
        line(rows[r] ?? [], (t, i) => {
          const col = c[i];
          return col?.style && item !== null && typeof item === 'object' ? col.style(t, item, io.color) : t;
        }),
      );
    }
    ctx.write(`${out.join('\n')}\n`);
    ctx.io.flushOut(); // a batch of rows is one large write already: shown at once
  }

  let count = 0;
  return {
    async item(item) {
      batch.push(item);
      count++;
      if (batch.length >= TABLE_BATCH) await flush();
    },
    async end({ complete }) {
      await flush();
      if (!complete) return;
      // Columns are never left out in silence: once, after the rows (cli-contract.md §3's tables).
      const hiddenHint = () => {
        if (hidden.length === 0) return;
        const n = hidden.length;
        io.hint(
          `${n} column${n === 1 ? '' : 's'} hidden (${hidden.join(', ')}): -o wide${ctx.columnsOption ? ' or --columns' : ''} to show ${n === 1 ? 'it' : 'them'}`,
        );
      };
      // The page read `count` rows plus those a stage left out (accepted risk): positions and the next
      // --offset count what was read, and the hint says how many of them are not shown, and why.
      const left = ctx.leftOut?.();
      const page = await ctx.page?.();
      const filtered = page?.filtered;
      if (count === 0 && !left) io.notice(`No ${ctx.noun} found.`);
      if (count === 0 && !left && !filtered) return;
      const { read, next: nextOffset } = pageEnd(page, count, left);
      const fmt = (n: number) => n.toLocaleString('en-US');
      const more =
        nextOffset === undefined ? '' : ` — use --all or ${page?.next ?? `--offset ${nextOffset}`}`;
      if (filtered && page) {
        // A filter of cssctl's: what was read of the service's list, what is shown, what the filter left out.
        const range =
          page.total !== undefined
            ? `${fmt(page.offset + 1)}–${fmt(page.offset + read)} of ${fmt(page.total)}`
            : `${fmt(read)} ${ctx.noun}`;
        const parts = [`${fmt(count)} shown`, `${fmt(filtered.left)} ${filtered.why}`];
        if (left) parts.push(`${fmt(left.count)} ${left.why}`);
        io.hint(`Read ${read === 0 ? `0 ${ctx.noun}` : range}: ${parts.join(', ')}${more}`);
        left?.told?.();
      } else if (page?.total !== undefined && nextOffset !== undefined) {
        const range = `${fmt(page.offset + 1)}–${fmt(page.offset + read)} of ${fmt(page.total)}`;
        io.hint(
          left
            ? `Read ${range}: ${fmt(count)} shown, ${fmt(left.count)} ${left.why}${more}`
            : `Showing ${range}${more}`,
        );
        left?.told?.();
      }
      hiddenHint();
    },
  };
}
