import type { Column, Formatter, FormatterContext } from '../format.js';
import type { IO } from '../io.js';
import { terminalText } from '../terminal-text.js';
import { cellText } from './cells.js';

/** Rows are written in batches: the first fixes the columns and their widths, so memory stays flat. */
export const TABLE_BATCH = 100;
/** Off a terminal there is no width to fit: a cell is still cut past this many columns. */
export const PIPE_CELL_WIDTH = 160;
const GAP = 2;
const MIN_WIDTH = 6;

/** cli-table3's width and truncation (East Asian wide characters count double), with a fast path for ASCII. */
async function loadWidths() {
  const { default: utils } = await import('cli-table3/src/utils.js');
  const ascii = /^[\x20-\x7e]*$/;
  return {
    width: (s: string) => (ascii.test(s) ? s.length : utils.strlen(s)),
    cut: (s: string, w: number) =>
      ascii.test(s) ? (s.length <= w ? s : `${s.slice(0, Math.max(0, w - 1))}…`) : utils.truncate(s, w),
  };
}

/**
 * Column widths that fit `budget` columns: the widest columns give way first, none below MIN_WIDTH (or its
 * natural width, when smaller).
 */
export function fitWidths(natural: number[], budget: number): number[] {
  const widths = [...natural];
  const total = () => widths.reduce((a, b) => a + b, 0) + GAP * (widths.length - 1);
  while (total() > budget) {
    let widest = -1;
    for (let i = 0; i < widths.length; i++) {
      if ((widths[i] ?? 0) > MIN_WIDTH && (widest < 0 || (widths[i] ?? 0) > (widths[widest] ?? 0)))
        widest = i;
    }
    if (widest < 0) break;
    const others = total() - (widths[widest] ?? 0);
    widths[widest] = Math.max(MIN_WIDTH, Math.min((widths[widest] ?? 0) - 1, budget - others));
  }
  return widths;
}

function terminalWidth(io: IO): number | undefined {
  const cols = (io.stdout as { columns?: number }).columns;
  return io.stdoutIsTTY && typeof cols === 'number' && cols > 0 ? cols : undefined;
}

/**
 * `table`: a borderless table written batch by batch (widths measured as cli-table3 does). Cells are sanitised (text from the service
 * never drives the terminal) and cut with '…' to fit the terminal; the full text is in json and csv.
 * Ctrl-C or an error mid-stream still writes the rows held for the batch (end with complete: false).
 */
export function table<T>(ctx: FormatterContext<T>): Formatter<T> {
  const { io } = ctx;
  let cols: Column<T>[] | undefined;
  let widths: number[] | undefined;
  let batch: T[] = [];

  async function flush(): Promise<void> {
    if (batch.length === 0) return;
    const items = batch;
    batch = [];
    const { width, cut } = await loadWidths();
    const first = cols === undefined;
    cols ??= ctx.columns.filter((c) => !c.optional || items.some((i) => cellText(c, i) !== ''));
    const rows = items.map((item) => cols!.map((c) => terminalText(cellText(c, item))));
    if (!widths) {
      const natural = cols.map((c, i) => Math.max(width(c.header), ...rows.map((r) => width(r[i] ?? ''))));
      const room = terminalWidth(io);
      widths =
        room === undefined
          ? natural.map((n) => Math.min(n, PIPE_CELL_WIDTH))
          : fitWidths(natural, Math.max(room - 1, 20));
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
      if (count === 0) {
        io.notice(`No ${ctx.noun} found.`);
        return;
      }
      const page = await ctx.page?.();
      if (page?.total !== undefined && page.offset + count < page.total) {
        const fmt = (n: number) => n.toLocaleString('en-US');
        const next = page.next ?? `--offset ${page.offset + count}`;
        io.hint(
          `Showing ${fmt(page.offset + 1)}–${fmt(page.offset + count)} of ${fmt(page.total)} — use --all or ${next}`,
        );
      }
    },
  };
}
