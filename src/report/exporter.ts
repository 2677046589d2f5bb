// The one exporter: a findings stream written in the format -o names — to stdout, or atomically to
// `--output-file` — and to every `--report <format>=<path>`, all from one read (cli-contract.md §9). It owns the
// format names (through registry.ts) and leaves out items that are not findings, for every format.
import { PassThrough, Writable } from 'node:stream';
import type { Finding, Severity } from '../api/findings-types.js';
import type { Context } from '../core/context.js';
import { CliError, UsageError } from '../core/errors.js';
import { AtomicFileWriter } from '../core/files.js';
import type { Column, Formatter, FormatterFactory, ReportAbout } from '../core/format.js';
import { IO } from '../core/io.js';
import { parseColumns, standardFormats, writeList, type ListSource } from '../core/output/index.js';
import { findingColumns } from './columns.js';
import { loadReportFormat } from './registry.js';
import type { ReportSpec } from './report-spec.js';
import { objectsOnly } from './stages.js';
import { keepsIgnored } from './ignore/index.js';
import { ignoredOf } from './ignore/stage.js';

export interface ExportOptions {
  /** What -o asks for on stdout (or in --output-file); undefined: nothing (a scan summary is printed instead). */
  format?: string;
  /** -o's output goes to this file, atomically, instead of stdout. */
  outputFile?: string;
  /** --report: more formats from the same read. */
  reports?: readonly ReportSpec[];
  /** The gate, for formats that mark what meets it (junit failures). */
  failOn?: Severity;
  /** Table and csv columns for a format (default: the finding's own). */
  columns?: (format: string) => Column<Finding>[];
  /**
   * `--columns`: the names asked for, applied to stdout's table/wide/csv (checked before any request by
   * parseColumns; the fields it names against the first page).
   */
  chosenColumns?: string;
  /** The command takes `--columns` (findings list; not findings diff or a scan report). */
  columnsOption?: boolean;
  /** What is reported, for a report's header (html). */
  about?: ReportAbout;
  /**
   * --show-ignored. Ignored findings reach the exporter marked when some destination keeps them; each
   * destination whose format does not (keepsIgnored) leaves them out.
   */
  showIgnored?: boolean;
}

/** An IO for a report written to a file: no colour, no terminal, messages still on stderr. */
function fileIO(ctx: Pick<Context, 'io'>): IO {
  const sink = new Writable({ write: (_c, _e, cb) => cb() });
  return new IO(
    { stdin: new PassThrough(), stdout: sink, stderr: ctx.io.stderr },
    { env: {}, noColorFlag: true, quiet: ctx.io.quiet },
  );
}

/**
 * Writes the stream in every asked format; returns how many findings were read. Every file is written whole or
 * not at all; one that cannot be written is exit 1 naming its path, after the others are written.
 */
export async function exportFindings(
  ctx: Pick<Context, 'io' | 'signal'>,
  source: ListSource<Finding>,
  opts: ExportOptions,
): Promise<number> {
  const baseColumns = opts.columns ?? (() => findingColumns);
  // --columns picks stdout's columns (-o), resolved by writeList once the first page is read; a --report file
  // keeps every column of its format.
  const choice = opts.format !== undefined ? parseColumns(opts.chosenColumns, opts.format) : undefined;
  const dests: { format: string; path?: string }[] = [
    ...(opts.format !== undefined ? [{ format: opts.format, path: opts.outputFile }] : []),
    ...(opts.reports ?? []),
  ];
  const stream = objectsOnly(ctx.io, source);
  /** Whether a destination of this format leaves an ignored finding out. */
  const dropsIgnored = (format: string) => !keepsIgnored(format, opts.showIgnored);
  if (dests.length === 1 && dests[0]!.path === undefined) {
    const format = dests[0]!.format;
    return writeList(ctx.io, dropsIgnored(format) ? withoutIgnored(stream) : stream, {
      format,
      formats: { ...standardFormats<Finding>(), ...(await loadReportFormat(format)) },
      columns: baseColumns(format),
      choice,
      chosen: choice !== undefined,
      columnsOption: opts.columnsOption,
      noun: 'findings',
      failOn: opts.failOn,
      signal: ctx.signal,
      about: opts.about,
    });
  }
  const factories = new Map<string, FormatterFactory<Finding>>();
  for (const d of dests) {
    const f = { ...standardFormats<Finding>(), ...(await loadReportFormat(d.format)) }[d.format];
    if (!f) throw new UsageError(`-o ${d.format} is not available for findings`);
    factories.set(d.format, f);
  }
  const files = dests.map((d) => (d.path === undefined ? undefined : new AtomicFileWriter(d.path)));
  const quietIO = dests.some((d) => d.path !== undefined) ? fileIO(ctx) : undefined;
  const fanOut: FormatterFactory<Finding> = (base) => {
    const each: Formatter<Finding>[] = dests.map((d, i) => {
      const file = files[i];
      return factories.get(d.format)!({
        ...base,
        io: file ? quietIO! : base.io,
        write: file ? (s) => file.write(s) : base.write,
        // stdout's columns as writeList resolved them (--columns); a file's, its format's own.
        columns: i === 0 && choice !== undefined ? base.columns : baseColumns(d.format),
        chosen: i === 0 && choice !== undefined,
        columnsOption: opts.columnsOption,
        about: opts.about,
        page: file ? undefined : base.page,
        leftOut: file ? undefined : base.leftOut,
      });
    });
    const drops = dests.map((d) => dropsIgnored(d.format));
    return {
      async item(item) {
        const ignored = ignoredOf(item) !== undefined;
        for (let i = 0; i < each.length; i++) if (!(ignored && drops[i])) await each[i]!.item(item);
      },
      async end(info) {
        for (const f of each) await f.end(info);
      },
    };
  };
  let count: number;
  try {
    count = await writeList(ctx.io, stream, {
      format: 'fan-out',
      formats: { 'fan-out': fanOut },
      columns: choice !== undefined ? baseColumns(opts.format!) : [],
      choice,
      noun: 'findings',
      failOn: opts.failOn,
      signal: ctx.signal,
    });
  } catch (err) {
    // Interrupted or failed: every file is left as it was.
    for (const f of files) f?.abort();
    throw err;
  }
  const failed: CliError[] = [];
  for (const f of files) {
    if (!f) continue;
    try {
      f.commit();
    } catch (err) {
      failed.push(err instanceof CliError ? err : new CliError(String(err)));
    }
  }
  if (failed.length === 1) throw failed[0]!;
  if (failed.length > 1) throw new CliError(failed.map((e) => e.message).join('; '));
  return count;
}

export { checkDestinations, parseReportSpec, type ReportSpec } from './report-spec.js';

/** The stream without the ignored findings (kept, marked, for another destination of the same read). */
function withoutIgnored(source: ListSource<Finding>): ListSource<Finding> {
  const out: ListSource<Finding> = {
    async *[Symbol.asyncIterator]() {
      for await (const f of source) if (ignoredOf(f) === undefined) yield f;
    },
  };
  if (source.pages) {
    const pages = source.pages.bind(source);
    out.pages = async function* () {
      for await (const batch of pages()) yield batch.filter((f) => ignoredOf(f) === undefined);
    };
  }
  if (source.page) out.page = source.page.bind(source);
  if (source.resume) out.resume = source.resume.bind(source);
  if (source.leftOut) out.leftOut = source.leftOut.bind(source);
  return out;
}
