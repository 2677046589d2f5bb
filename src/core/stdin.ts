import type { Readable } from 'node:stream';
import { UsageError } from './errors.js';

/** Reads all of a stream as bytes, refusing more than `limit` (so a mistaken pipe cannot eat memory). */
export async function readAll(
  stream: Readable,
  limit = 8 * 1024 * 1024,
  what = 'standard input',
): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const b = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += b.length;
    if (size > limit) throw new UsageError(`${what} is larger than ${Math.round(limit / 1024)} KiB`);
    chunks.push(b);
  }
  return Buffer.concat(chunks);
}

/** A secret piped in: the first line, without its line ending. */
export async function readSecretLine(stream: Readable, what: string): Promise<string> {
  const text = (await readAll(stream, 64 * 1024, what)).toString('utf8');
  const line = text.split(/\r?\n/)[0] ?? '';
  if (!line) throw new UsageError(`${what} is empty`);
  return line;
}
