import type { FormatterContext, Formatter } from '../format.js';

/** `ndjson`: one item per line, written as it arrives. */
export function ndjson<T>(ctx: FormatterContext<T>): Formatter<T> {
  return {
    item: (item) => ctx.write(`${JSON.stringify(item) ?? 'null'}\n`),
    end: () => undefined,
  };
}
