// What the CI report formats (sarif, junit, github; cli-contract.md §3 "CI reports") share: their options,
// what they do with items that are not findings, and the severity buckets that let them write most severe
// first with flat memory whatever the number of findings.
import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import type { Formatter, FormatterContext } from '../../core/format.js';
import type { Finding, Severity } from '../../api/findings-types.js';
import { OTHER } from '../severity.js';

/** What a command knows that a report format may need beyond the item stream. */
export interface ReportOptions {
  /** The gate (`--fail-on`): junit marks findings at or above it as failures (every finding without it). */
  failOn?: Severity;
  /** SARIF results per run; GitHub code scanning takes at most 25,000. Lowered by tests. */
  maxResults?: number;
  /** SARIF rules per run (GitHub takes at most 25,000). Lowered by tests. */
  maxRules?: number;
  /** Bytes of report text kept in memory before the buckets spill to temporary files. Lowered by tests. */
  spillBytes?: number;
  /** Folder for the spill files (default: the OS temporary folder). */
  tmpDir?: string;
  /** Bytes read back from a spill file at a time. Lowered by tests. */
  readChunk?: number;
}

/** A report format: a FormatterFactory that also takes the report options (optional, so it is both). */
export type ReportFormatterFactory = (
  ctx: FormatterContext<Finding>,
  options?: ReportOptions,
) => Formatter<Finding>;

/**
 * Items that are not findings (a `null` or a bare value in the service's list) are left out of a report; the
 * formatter says on stderr at the end how many there were.
 */
export class NonFindings {
  private n = 0;
  constructor(private readonly format: string) {}

  /** The item as a finding, or undefined (counted) when it is not an object. */
  accept(item: unknown): Finding | undefined {
    if (item !== null && typeof item === 'object' && !Array.isArray(item)) return item as Finding;
    this.n++;
    return undefined;
  }

  warn(ctx: FormatterContext<Finding>): void {
    if (this.n > 0)
      ctx.io.warn(
        `${this.format}: left out ${this.n} item${this.n === 1 ? '' : 's'} that ${this.n === 1 ? 'is' : 'are'} not a finding`,
      );
  }
}

/**
 * How a report writes its end, one long loop over the spilled text: every ~1 MiB the writer lets the event loop
 * turn, so stdout drains and V8 gets the turns it collects garbage in. Without them a 100,000-finding JUnit
 * report peaked at 143 MiB instead of ~105 (`npm run bench`, section 4).
 */
export function pacedWriter(ctx: FormatterContext<Finding>): (text: string) => Promise<void> | undefined {
  let since = 0;
  return (text) => {
    ctx.write(text);
    since += text.length;
    if (since < 1024 * 1024) return undefined;
    since = 0;
    return ctx.io.outReady() ?? new Promise<void>((resolve) => setImmediate(resolve));
  };
}

const DEFAULT_SPILL_BYTES = 4 * 1024 * 1024;
const CHUNK = 64 * 1024;
// Read back in pieces small enough to stay out of V8's large-object space (collected only by full GCs).
const READ_CHUNK = 32 * 1024;

/**
 * Report text grouped by severity bucket (0 critical … 5 other), given in any order and read back most severe
 * first. Reports need this because findings do not always arrive sorted (`scans wait -o junit` reads the
 * scan's findings in the service's id order), and a JUnit testsuite's counts come before its test cases.
 *
 * Memory stays flat: the text is encoded at once into 64 KiB buffers (so no string outlives its item and the
 * garbage collector never has to promote them); up to `spillBytes` of buffers are kept, past that every bucket
 * is appended to its own file in a private temporary folder (mode 0700; the findings may name sensitive
 * resources) and only one buffer per bucket is kept. Files are read back in chunks and removed by `close()` —
 * or when the process exits, if `close()` never came.
 */
export class SeverityBuckets {
  /** Per bucket: the buffers of text not yet in its file, the last one being filled. */
  private readonly held: { buf: Buffer; len: number }[][] = Array.from({ length: OTHER + 1 }, () => []);
  private readonly fds: (number | undefined)[] = Array.from({ length: OTHER + 1 }, () => undefined);
  /** Emptied buffers, used again rather than left to the garbage collector. */
  private readonly pool: Buffer[] = [];
  private heldBytes = 0;
  private dir?: string;
  private readonly spillBytes: number;
  /** Set when the temporary folder cannot be used: everything stays in memory. */
  private inMemory = false;
  private readonly cleanupOnExit = () => this.close();

  constructor(
    private readonly options: Pick<ReportOptions, 'spillBytes' | 'tmpDir' | 'readChunk'> & {
      /** Says why the text stays in memory when the temporary folder cannot be used. */
      warn?: (message: string) => void;
    } = {},
  ) {
    this.spillBytes = options.spillBytes ?? DEFAULT_SPILL_BYTES;
  }

  /** True once the text went to temporary files (for tests). */
  get spilled(): boolean {
    return this.dir !== undefined;
  }

  add(bucket: number, chunk: string): void {
    const entries = this.held[bucket]!;
    let cur = entries[entries.length - 1];
    const need = Buffer.byteLength(chunk, 'utf8');
    if (cur === undefined || cur.len + need > cur.buf.length) {
      const buf = need <= CHUNK ? (this.pool.pop() ?? Buffer.allocUnsafe(CHUNK)) : Buffer.allocUnsafe(need);
      cur = { buf, len: 0 };
      entries.push(cur);
      this.heldBytes += buf.length;
    }
    cur.len += cur.buf.write(chunk, cur.len, 'utf8');
    if (this.heldBytes > this.spillBytes) this.spill();
  }

  /** The text of one bucket, in the order it was added, in pieces of bounded size. */
  *read(bucket: number): Generator<string> {
    const fd = this.fds[bucket];
    const decoder = new StringDecoder('utf8');
    if (fd !== undefined) {
      this.flush(bucket);
      const buf = Buffer.allocUnsafe(this.options.readChunk ?? READ_CHUNK);
      let pos = 0;
      for (;;) {
        const n = readSync(fd, buf, 0, buf.length, pos);
        if (n === 0) break;
        pos += n;
        const s = decoder.write(buf.subarray(0, n));
        if (s !== '') yield s;
      }
    } else {
      for (const { buf, len } of this.held[bucket]!) {
        const s = decoder.write(buf.subarray(0, len));
        if (s !== '') yield s;
      }
    }
    const rest = decoder.end();
    if (rest !== '') yield rest;
  }

  /** Closes and removes the spill files. Safe to call more than once. */
  close(): void {
    for (let b = 0; b <= OTHER; b++) {
      const fd = this.fds[b];
      if (fd !== undefined) closeSync(fd);
      this.fds[b] = undefined;
      this.held[b] = [];
    }
    this.pool.length = 0;
    this.heldBytes = 0;
    if (this.dir !== undefined) {
      rmSync(this.dir, { recursive: true, force: true });
      this.dir = undefined;
      process.removeListener('exit', this.cleanupOnExit);
    }
  }

  private spill(): void {
    if (this.inMemory) return;
    if (this.dir === undefined) {
      const base = this.options.tmpDir ?? tmpdir();
      try {
        this.dir = mkdtempSync(join(base, 'cssctl-report-'));
      } catch (err) {
        // An unusable $TMPDIR (missing, read-only, full) costs memory, never the report (cli-contract.md §3).
        this.inMemory = true;
        const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
        this.options.warn?.(
          `cannot use the temporary folder ${base} for this large report (${code}); keeping it in memory instead (set TMPDIR to a writable folder)`,
        );
        return;
      }
      process.once('exit', this.cleanupOnExit);
    }
    for (let b = 0; b <= OTHER; b++) this.flush(b);
  }

  /** Appends a bucket's held text to its file; its last buffer stays (emptied) to be filled next. */
  private flush(bucket: number): void {
    const entries = this.held[bucket]!;
    if (entries.length === 0) return;
    let fd = this.fds[bucket];
    if (fd === undefined) {
      fd = openSync(join(this.dir as string, `bucket-${bucket}`), 'a+', 0o600);
      this.fds[bucket] = fd;
    }
    for (const { buf, len } of entries) {
      let off = 0;
      while (off < len) off += writeSync(fd, buf, off, len - off);
    }
    const last = entries.pop() as { buf: Buffer; len: number };
    for (const { buf } of entries) {
      this.heldBytes -= buf.length;
      if (buf.length === CHUNK) this.pool.push(buf);
    }
    last.len = 0;
    this.held[bucket] = [last];
  }
}
