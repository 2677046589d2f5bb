import type { FormatterContext, Formatter } from '../format.js';
import { cellText, csvField } from './cells.js';

/** `csv`: a header row, then one row per item, full text (never cut, never coloured). */
export function csv<T>(ctx: FormatterContext<T>): Formatter<T> {
  ctx.write(`${ctx.columns.map((c) => csvField(c.header.toLowerCase())).join(',')}\n`);
  return {
    item: (item) => ctx.write(`${ctx.columns.map((c) => csvField(cellText(c, item))).join(',')}\n`),
    end: () => undefined,
  };
}
