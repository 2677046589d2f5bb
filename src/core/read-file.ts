// Reading files without ever making the process deaf to Ctrl-C and SIGTERM (cli-contract.md §3, issue 20 #4).
//
// Opening a FIFO for reading blocks until a writer appears. A synchronous open (readFileSync) blocks the
// event loop itself, so the signal handlers never run: `cssctl api /x --input /tmp/fifo` ignored Ctrl-C and
// SIGTERM until something wrote to the FIFO. An asynchronous one (fs.promises, createReadStream(path)) blocks
// a thread-pool thread instead, and process.exit() then waits for that thread: the handlers run, the process
// still does not end. So every file is opened with O_NONBLOCK, which returns at once whatever it is: cssctl's
// own files must then be regular files; a file the user names may be a FIFO on purpose, and is read as a
// pipe on the event loop, where a signal stops the wait.
import {
  closeSync,
  constants,
  createReadStream,
  fstatSync,
  openSync,
  readFileSync,
  type Stats,
} from 'node:fs';
import { Socket } from 'node:net';
import type { Readable } from 'node:stream';
import { isatty } from 'node:tty';
import { InterruptedError, UsageError } from './errors.js';

/**
 * One of cssctl's own files (config.json, credentials.json, ratelimit-state.json) as UTF-8. It is opened
 * with O_NONBLOCK, which never waits on a FIFO, and read only when it is a regular file; anything else in its
 * place throws (code ENOTREG), as a missing file throws ENOENT.
 */
export function readStateFileSync(path: string): string {
  const fd = openRegular(path);
  try {
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}

export interface UserFileOptions {
  /** The flag that named the file, for messages: `--payload-file`. */
  what: string;
  /** Ctrl-C and SIGTERM: stop waiting for a writer (or for the rest of the data) at once. */
  signal?: AbortSignal;
  /** Refuse more than this many bytes (default 64 MiB), so `/dev/zero` cannot eat memory. */
  maxBytes?: number;
}

/**
 * A file the user named, byte for byte. It is opened non-blocking (never waiting on a FIFO); a regular file
 * is then read at once; a FIFO (`mkfifo`, a named pipe) is read on the event loop as a pipe is, waiting for
 * its writer however long, and `signal` interrupts that wait (InterruptedError) — the thread pool is never
 * involved, so nothing holds the process at exit; another device (`/dev/zero`) is read up to the cap; a
 * terminal is refused. Failures are one usage error naming the flag and the path (exit 2).
 */
export async function readUserFile(path: string, opts: UserFileOptions): Promise<Buffer> {
  const max = opts.maxBytes ?? 64 * 1024 * 1024;
  const cannot = (err: unknown) =>
    new UsageError(`cannot read ${opts.what} ${path}: ${(err as NodeJS.ErrnoException).code ?? 'error'}`);
  const tooLarge = () => new UsageError(`${opts.what} ${path} is larger than ${describeBytes(max)}`);
  if (opts.signal?.aborted) throw new InterruptedError();
  let fd: number;
  let st: Stats;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (err) {
    throw cannot(err);
  }
  try {
    st = fstatSync(fd);
  } catch (err) {
    closeSync(fd);
    throw cannot(err);
  }
  if (st.isFile() || st.isDirectory()) {
    try {
      if (st.size > max) throw tooLarge();
      const data = readFileSync(fd);
      if (data.length > max) throw tooLarge();
      return data;
    } catch (err) {
      throw err instanceof UsageError ? err : cannot(err);
    } finally {
      closeSync(fd);
    }
  }
  if (isatty(fd)) {
    closeSync(fd);
    throw new UsageError(`${opts.what} ${path} is a terminal: name a file, or pipe the data in`);
  }
  // A FIFO becomes a pipe handle on the event loop (epoll waits for its writer); other devices a file stream.
  const stream = st.isFIFO()
    ? new Socket({ fd, readable: true, writable: false })
    : createReadStream('', { fd, autoClose: true });
  return readStream(stream, max, opts.signal, cannot, tooLarge);
}

/** A descriptor of `path`, opened non-blocking and checked to be a regular file. */
function openRegular(path: string): number {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    if (!fstatSync(fd).isFile()) throw Object.assign(new Error('not a regular file'), { code: 'ENOTREG' });
  } catch (err) {
    closeSync(fd);
    throw err;
  }
  return fd;
}

function readStream(
  stream: Readable,
  max: number,
  signal: AbortSignal | undefined,
  cannot: (err: unknown) => Error,
  tooLarge: () => Error,
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (err: Error | undefined, value?: Buffer) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      stream.destroy();
      if (err) reject(err);
      else resolve(value!);
    };
    const onAbort = () => settle(new InterruptedError());
    signal?.addEventListener('abort', onAbort, { once: true });
    stream.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) return settle(tooLarge());
      chunks.push(chunk);
    });
    stream.on('error', (err) => settle(cannot(err)));
    stream.on('end', () => settle(undefined, Buffer.concat(chunks, size)));
  });
}

function describeBytes(n: number): string {
  if (n >= 1024 * 1024 && n % (1024 * 1024) === 0) return `${n / (1024 * 1024)} MiB`;
  if (n >= 1024 && n % 1024 === 0) return `${n / 1024} KiB`;
  return `${n} bytes`;
}
