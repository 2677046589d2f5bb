import type { Writable } from 'node:stream';
import { CliError } from './errors.js';

/** A stage text meant for stdout passes through (--jq, src/jq/stage.ts). */
export interface OutputFilter {
  /**
   * Takes text meant for stdout; `send` writes what should go out instead, at once or later (in order: jq runs in
   * a thread of its own). What it throws stops output.
   */
  write(text: string, send: (out: string) => void): void;
  /** Undefined while the filter keeps up; else a promise for when it has room again, rejected with its error. */
  ready?(): Promise<void> | undefined;
  /** Resolves when what was handed to the filter has been sent on (or dropped). */
  settled?(): Promise<void>;
}

/** Large writes: one system call per 64 KiB instead of one per item (the cost of a 100,000-item export). */
export const CHUNK_CHARS = 64 * 1024;

/**
 * Everything cssctl writes to stdout goes through one sink, which keeps the first error the stream reports
 * (a full disk, /dev/full, a broken pipe) so the command can end with exit 1 instead of a silently cut
 * file. Lists write `batched`: items gather into large chunks, handed to the stream when 64 KiB are ready,
 * when the process goes idle (waiting for the next page), before anything goes to stderr, and at the end.
 */
export class OutputSink {
  private parts: string[] = [];
  private size = 0;
  private failure?: NodeJS.ErrnoException;
  private idleFlush = false;
  /** A stage the text passes through on its way out (--jq, src/jq/stage.ts); what it throws stops output. */
  filter?: OutputFilter;

  constructor(private readonly stream: Writable) {
    // Without a listener a stream error would be thrown as an uncaught exception.
    if (typeof stream.on === 'function') stream.on('error', (err) => this.fail(err));
  }

  /** The first write error, if any. */
  get error(): NodeJS.ErrnoException | undefined {
    return this.failure;
  }

  /** Written at once (single answers, help, notices meant for stdout). */
  write(text: string): void {
    this.flush();
    this.send(text);
  }

  /** Gathered into a large chunk; call `ready()` between items and `flush()` when done. */
  batched(text: string): void {
    if (this.failure) return;
    this.parts.push(text);
    this.size += text.length;
    if (this.size >= CHUNK_CHARS) this.flush();
    else if (!this.idleFlush) {
      // When the producer stops to wait (for the next page), what it has written goes out.
      this.idleFlush = true;
      setImmediate(() => {
        this.idleFlush = false;
        this.flush();
      });
    }
  }

  /** Hands the gathered text to the stream now. */
  flush(): void {
    if (this.size === 0) return;
    const chunk = this.parts.length === 1 ? this.parts[0]! : this.parts.join('');
    this.parts = [];
    this.size = 0;
    this.send(chunk);
  }

  /**
   * Resolves at once while the stream keeps up; waits for 'drain' when it is full (backpressure), so a slow
   * reader never makes cssctl hold the export in memory. Throws the write error once there is one, which
   * stops an export instead of fetching pages nobody can receive.
   */
  ready(): Promise<void> | undefined {
    if (this.failure) return Promise.reject(writeError(this.failure));
    // A filter that has fallen behind (jq working through earlier chunks) holds the producer back too, so
    // memory stays flat however fast pages arrive.
    const filtering = this.filter?.ready?.();
    if (filtering) return filtering.then(() => this.ready());
    if (!this.stream.writableNeedDrain) return undefined;
    return new Promise<void>((resolve, reject) => {
      const done = () => {
        this.stream.off('drain', done);
        this.stream.off('error', done);
        this.stream.off('close', done);
        if (this.failure) reject(writeError(this.failure));
        else resolve();
      };
      this.stream.on('drain', done);
      this.stream.on('error', done);
      this.stream.on('close', done);
    });
  }

  /**
   * Writes what is gathered and waits until the stream has taken all of it. Returns the error that kept
   * output from being written, as a CliError (exit 1), or undefined when everything was written.
   */
  async finish(): Promise<CliError | undefined> {
    this.flush();
    // What a filter still works on reaches the stream first (a command stopped by Ctrl-C: the rows it had read).
    await this.filter?.settled?.();
    // A write's error arrives on a later tick (after a synchronous write to a file too): let it come.
    await new Promise<void>((resolve) => setImmediate(resolve));
    // Only output still on its way is waited for (an empty write is not answered on every stream).
    const pending = this.stream.writableLength > 0;
    if (pending && !this.failure && !this.stream.destroyed && !this.stream.writableEnded) {
      await new Promise<void>((resolve) => {
        const done = () => {
          this.stream.off('close', done);
          resolve();
        };
        this.stream.on('close', done);
        try {
          this.stream.write('', (err) => {
            if (err) this.fail(err);
            done();
          });
        } catch (err) {
          this.fail(err);
          done();
        }
      });
    }
    return this.failure ? writeError(this.failure) : undefined;
  }

  private send(text: string): void {
    if (this.failure) return;
    if (this.filter) {
      try {
        this.filter.write(text, (out) => this.sendOut(out));
      } catch (err) {
        this.fail(err);
      }
      return;
    }
    this.sendOut(text);
  }

  private sendOut(text: string): void {
    if (this.failure) return;
    if (this.stream.destroyed) {
      this.fail(Object.assign(new Error('stdout is closed'), { code: 'ERR_STREAM_DESTROYED' }));
      return;
    }
    try {
      this.stream.write(text, (err) => {
        if (err) this.fail(err);
      });
    } catch (err) {
      this.fail(err);
    }
  }

  private fail(err: unknown): void {
    this.failure ??= err instanceof Error ? err : new Error(String(err));
  }
}

const WHY: Record<string, string> = {
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  EFBIG: 'file too large',
  EIO: 'input/output error',
  EBADF: 'stdout is closed',
  EPIPE: 'the reader closed the pipe',
  ERR_STREAM_DESTROYED: 'stdout is closed',
  ERR_STREAM_WRITE_AFTER_END: 'stdout is closed',
};

/** Exit 1 (cli-contract.md §3): output that could not be written is never a success. */
export function writeError(err: NodeJS.ErrnoException): CliError {
  if (err instanceof CliError) return err; // a filter's own error (--jq)
  const code = err.code ?? '';
  const why = WHY[code] ?? err.message;
  return new CliError(`cannot write output: ${why}${code && WHY[code] ? ` (${code})` : ''}`, { cause: err });
}

/** A reader leaving early (`cssctl … | head`) is not worth a word. */
export function isBrokenPipe(err: unknown): boolean {
  return (err as NodeJS.ErrnoException | undefined)?.code === 'EPIPE';
}
