import type { FormatterContext, Formatter } from '../format.js';

/** JSON.stringify(array, null, 2) written one element at a time, so `--all` streams. */
export class JsonArrayWriter {
  private count = 0;
  constructor(private readonly write: (s: string) => void) {}
  push(item: unknown): void {
    const body = (JSON.stringify(item, null, 2) ?? 'null').replace(/\n/g, '\n  ');
    this.write(`${this.count === 0 ? '[\n  ' : ',\n  '}${body}`);
    this.count++;
  }
  end(): void {
    this.write(this.count === 0 ? '[]\n' : '\n]\n');
  }
}

/** `json`: one array document, the same with or without `--all`; closed even when the stream stops early. */
export function json<T>(ctx: FormatterContext<T>): Formatter<T> {
  const w = new JsonArrayWriter(ctx.write);
  return {
    item: (item) => w.push(item),
    end: () => w.end(),
  };
}
