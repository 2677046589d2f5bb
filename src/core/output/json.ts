import type { FormatterContext, Formatter } from '../format.js';

/** JSON.stringify(array, null, 2) written one element at a time, so `--all` streams. */
export class JsonArrayWriter {
  private count = 0;
  constructor(private readonly write: (s: string) => void) {}
  push(item: unknown): void {
    // Stringified as the one element of an array, V8 indents it as an element of the list ("[\n  …\n]"):
    // no second pass over the text to indent it.
    const text = JSON.stringify([item === undefined ? null : item], null, 2);
    this.write(`${this.count === 0 ? '[\n  ' : ',\n  '}${text.slice(4, -2)}`);
    this.count++;
  }
  /** Several items at once: one stringify, V8 indenting them as the elements they are. */
  pushAll(items: readonly unknown[]): void {
    if (items.length === 0) return;
    const text = JSON.stringify(items, null, 2);
    this.write(`${this.count === 0 ? '[\n' : ',\n'}${text.slice(2, -2)}`);
    this.count += items.length;
  }
  end(): void {
    this.write(this.count === 0 ? '[]\n' : '\n]\n');
  }
}

/**
 * `json`: one array document, the same with or without `--all`; closed when the stream ends or is interrupted
 * (every item written is kept, cli-contract.md §4), left open when an error stopped it: a closed array would
 * pass for the whole list, and json has no way to say it is not.
 */
export function json<T>(ctx: FormatterContext<T>): Formatter<T> {
  const w = new JsonArrayWriter(ctx.write);
  return {
    item: (item) => w.push(item),
    items: (items) => w.pushAll(items),
    end: ({ failed }) => {
      if (!failed) w.end();
    },
  };
}
