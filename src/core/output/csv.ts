import type { FormatterContext, Formatter } from '../format.js';
import { cellValue, csvCell } from './cells.js';
import { csvHeader } from './columns.js';

/**
 * `csv`: a header row naming each column by the service's field (`connection_alias`), then one row per item,
 * full text (never cut, never coloured). Text cells that a spreadsheet would run as a formula get a leading
 * `'` (headers too: a field name comes from the service); on a terminal, cells are neutralised (csvCell).
 */
export function csv<T>(ctx: FormatterContext<T>): Formatter<T> {
  const terminal = ctx.io.stdoutIsTTY;
  ctx.write(`${ctx.columns.map((c) => csvCell(csvHeader(c), terminal)).join(',')}\n`);
  return {
    item: (item) => ctx.write(`${ctx.columns.map((c) => csvCell(cellValue(c, item), terminal)).join(',')}\n`),
    end: () => undefined,
  };
}
