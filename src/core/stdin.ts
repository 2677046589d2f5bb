import type { Readable } from 'node:stream';
import { InterruptedError, UsageError } from './errors.js';

/**
 * Reads all of a stream as bytes, refusing more than `limit` (so a mistaken pipe cannot eat memory).
 * `signal` (Ctrl-C, SIGTERM) ends a wait for data that does not come with an InterruptedError, at once.
 */
export async function readAll(
  stream: Readable,
  limit = 8 * 1024 * 1024,
  what = 'standard input',
  signal?: AbortSignal,
): Promise<Buffer> {
  const read = async () => {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of stream) {
      const b = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
      size += b.length;
      if (size > limit) throw new UsageError(`${what} is larger than ${Math.round(limit / 1024)} KiB`);
      chunks.push(b);
      if (signal?.aborted) throw new InterruptedError();
    }
    return Buffer.concat(chunks);
  };
  if (!signal) return read();
  if (signal.aborted) throw new InterruptedError();
  let onAbort: () => void = () => undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(new InterruptedError());
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([read(), aborted]);
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

/** A secret piped in: the first line, without its line ending. `signal`: as readAll's. */
export async function readSecretLine(stream: Readable, what: string, signal?: AbortSignal): Promise<string> {
  const text = (await readAll(stream, 64 * 1024, what, signal)).toString('utf8');
  const line = text.split(/\r?\n/)[0] ?? '';
  if (!line) throw new UsageError(`${what} is empty`);
  return line;
}

/**
 * One line typed on a terminal, without echo: Enter ends it, Backspace edits, Ctrl-C is exit 130, Ctrl-D on
 * an empty line ends the input. For `--password-stdin` when stdin is a terminal rather than a pipe.
 */
export function readHiddenLine(
  stdin: Readable & { isTTY?: boolean; setRawMode?: (raw: boolean) => unknown },
  what: string,
): Promise<string> {
  return new Promise((resolve, reject) => {
    let line = '';
    const raw = typeof stdin.setRawMode === 'function';
    if (raw) stdin.setRawMode!(true);
    const done = (err?: Error) => {
      stdin.removeListener('data', onData);
      if (raw) stdin.setRawMode!(false);
      stdin.pause();
      if (err) reject(err);
      else if (!line) reject(new UsageError(`${what} is empty`));
      else resolve(line);
    };
    const onData = (chunk: Buffer | string) => {
      for (const ch of typeof chunk === 'string' ? chunk : chunk.toString('utf8')) {
        if (ch === '\r' || ch === '\n' || ch === '\u0004') return done();
        if (ch === '\u0003') return done(new InterruptedError());
        if (ch === '\u007f' || ch === '\b') line = line.slice(0, -1);
        else if (ch >= ' ') line += ch;
      }
    };
    stdin.on('data', onData);
    stdin.resume();
  });
}
