// --jq on the output path (cli-contract.md §10). Everything a command writes to stdout passes through here
// (src/core/sink.ts): with -o json the text is kept and the filter runs once, at the end, over the whole
// document (for --all/--paginate the whole list, so `length` and `group_by` see every item — memory grows
// with the list, as the document does); with -o ndjson the filter runs over each chunk of lines as the sink
// hands them on (64 KiB at most, or what was written before the command paused), so memory stays flat. jq runs
// in a thread of its own (src/jq/engine.ts): chunks are filtered in order, one at a time, while the command
// reads on; the sink holds the command back while two chunks wait, and Ctrl-C ends jq whatever it is doing.
import { CliError, SilentExit, UsageError } from '../core/errors.js';
import type { IO } from '../core/io.js';
import type { OutputFilter } from '../core/sink.js';
import { terminalText } from '../core/terminal-text.js';
import { JqProgram, type JqRun } from './engine.js';
import type { JqOptions } from './flags.js';
import { REPORT_FORMATS, reportFormat } from '../report/registry.js';

/** A run-time jq error (exit 1), naming the item it happened on. */
export class JqRunError extends CliError {}

export type JqMode = 'json' | 'ndjson';

/** The --jq stage of one command: `end()` after the command succeeded, `abandon()` when it failed. */
export interface JqStage {
  /** Runs what is held (json) or left (ndjson); `gate: false` when the command's own exit code stands. */
  end(opts?: { gate?: boolean }): Promise<void>;
  abandon(): void;
}

/** -o json (the default with --jq) or -o ndjson; any other -o with --jq is a usage error. */
export function jqMode(output: string | undefined, json: boolean | undefined): JqMode {
  if (json || output === undefined) return 'json';
  const o = output.toLowerCase();
  if (o === 'json' || o === 'ndjson') return o;
  // A report format whose descriptor says so (ocsf: one event a line) is ndjson: the filter runs on each line.
  const report = reportFormat(o)?.jq;
  if (report !== undefined) return report;
  const names = ['json', 'ndjson', ...REPORT_FORMATS.filter((f) => reportFormat(f)?.jq !== undefined)];
  throw new UsageError(
    `--jq works with -o ${names.slice(0, -1).join(', ')} or ${names.at(-1)}, not -o ${output}`,
  );
}

/**
 * After Ctrl-C or SIGTERM, how long the chunks already handed to jq (-o ndjson) may take to be filtered and
 * printed — the rows read before the interruption are on stdout, so the resume command starts after them —
 * before jq's thread is ended, whatever the program does. A second Ctrl-C ends the process at once (src/cli.ts).
 */
export const INTERRUPT_GRACE_MS = 300;

/** Chunks (of 64 KiB at most) that may wait for jq before the command is held back. */
const MAX_WAITING = 2;

/**
 * Compiles the filter (exit 2 with jq's message when it does not compile, before any request) and puts the
 * stage on stdout. `signal` (the command's: Ctrl-C, SIGTERM) ends jq's thread.
 */
export async function installJq(
  io: IO,
  opts: JqOptions,
  mode: JqMode,
  signal?: AbortSignal,
  env?: NodeJS.ProcessEnv,
): Promise<JqStage> {
  const compiled = await JqProgram.compile(opts.filter, opts.varFlags, { signal, env });
  if ('error' in compiled) throw new UsageError(`--jq: ${compiled.error}`);
  // -o ndjson: the rows read before an interruption are still filtered, for a moment (INTERRUPT_GRACE_MS).
  const program =
    mode === 'ndjson' && signal ? compiled.program.withSignal(graceAfter(signal)) : compiled.program;
  const stage = new Stage(io, program, opts, mode);
  io.setOutputFilter(stage);
  return stage;
}

/** A signal aborted INTERRUPT_GRACE_MS after `signal` is. */
function graceAfter(signal: AbortSignal): AbortSignal {
  const later = new AbortController();
  const abort = () => setTimeout(() => later.abort(signal.reason), INTERRUPT_GRACE_MS).unref();
  if (signal.aborted) abort();
  else signal.addEventListener('abort', abort, { once: true });
  return later.signal;
}

class Stage implements JqStage, OutputFilter {
  /** -o json: the document, handed to jq's thread as it is written. */
  private readonly document;
  /** The text after the last newline (ndjson), kept for the next chunk. */
  private partial = '';
  /** ndjson lines read so far (for naming an item). */
  private lines = 0;
  private last?: string;
  private results = 0;
  /** ndjson: the chunks handed to jq, filtered one after the other. */
  private chain: Promise<void> = Promise.resolve();
  private waiting = 0;
  private readonly wakers: (() => void)[] = [];
  /** The error that stopped the filter (jq's, or an interruption); nothing is filtered after it. */
  private failure?: unknown;
  private abandoned = false;

  constructor(
    private readonly io: IO,
    private readonly program: JqProgram,
    private readonly opts: JqOptions,
    private readonly mode: JqMode,
  ) {
    this.document = program.document();
  }

  write(text: string, send: (out: string) => void): void {
    if (this.mode === 'json') {
      if (!this.abandoned) this.document.add(text);
      return;
    }
    if (this.failure !== undefined) return;
    const all = this.partial + text;
    const cut = all.lastIndexOf('\n');
    this.partial = all.slice(cut + 1);
    if (cut < 0) return;
    const chunk = all.slice(0, cut + 1);
    this.queue(() => this.ndjson(chunk, send));
  }

  ready(): Promise<void> | undefined {
    if (this.failure !== undefined && !this.abandoned) return Promise.reject(this.failure);
    if (this.waiting <= MAX_WAITING) return undefined;
    return new Promise<void>((resolve) => this.wakers.push(resolve)).then(() => this.ready());
  }

  settled(): Promise<void> {
    return this.chain;
  }

  /** ndjson: `job` runs after the chunks before it; its error stops the filter (ready() then rejects). */
  private queue(job: () => Promise<void>): void {
    this.waiting++;
    this.chain = this.chain.then(async () => {
      try {
        if (this.failure === undefined) await job();
      } catch (err) {
        this.failure ??= err;
      } finally {
        this.waiting--;
        for (const wake of this.wakers.splice(0)) wake();
      }
    });
  }

  private async ndjson(chunk: string, send: (out: string) => void): Promise<void> {
    // Each result is written as jq yields it; none after jq's first error.
    const r = await this.program.run(chunk, (results) => this.print(results, send));
    if (r.halt) this.halt(r, send);
    if (!r.error) {
      this.emit(r, send);
      this.lines += countLines(chunk);
      return;
    }
    if (r.error.line === undefined) {
      // Not an error of one item (halt_error, an abort): what came before it is written, then it stops.
      this.emit(r, send);
      throw new JqRunError(`jq: ${r.error.message}`);
    }
    // jq goes on after an error; cssctl stops at the first one: what jq wrote before it is out already, and the
    // item jq names is checked (the lines before it run clean, the item alone fails) so the error names it.
    const lines = chunk.split('\n');
    if (lines.at(-1) === '') lines.pop();
    const { at, error } = await this.firstFailing(lines, r.error.line);
    this.emit(r, send);
    throw new JqRunError(`jq: ${error} (at item ${this.lines + at}${idOf(lines[at - 1] ?? '')})`);
  }

  /**
   * The first of `lines` whose run fails, starting from the line jq named (`hint`, 1-based): back while the
   * lines before it fail, forward while it runs clean on its own. With the run of the lines before it.
   */
  private async firstFailing(
    lines: string[],
    hint: number,
  ): Promise<{ at: number; before?: JqRun; error: string }> {
    const runLines = (from: number, to: number) => this.program.run(`${lines.slice(from, to).join('\n')}\n`);
    let at = Math.min(Math.max(hint, 1), lines.length);
    let before: JqRun | undefined;
    for (;;) {
      before = at > 1 ? await runLines(0, at - 1) : undefined;
      if (!before?.error) break;
      at = Math.min(Math.max(before.error.line ?? at - 1, 1), at - 1);
    }
    for (;;) {
      const alone = await runLines(at - 1, at);
      if (alone.error || at >= lines.length) return { at, before, error: alone.error?.message ?? 'error' };
      at++;
      before = await runLines(0, at - 1);
    }
  }

  /**
   * halt_error, as jq: the results before it are written, its message goes to stderr as it is (a string raw, on a
   * terminal without controls), and the exit code is the one the program gave (5 unless it said otherwise, 0
   * too); nothing more is filtered.
   */
  private halt(r: JqRun, send: (out: string) => void): never {
    this.emit(r, send);
    const message = r.halt!.message;
    if (message !== '') this.io.writeErr(this.io.stderr.isTTY ? onTerminal(message) : message);
    throw new SilentExit(`jq: halt_error (exit ${r.halt!.code})`, r.halt!.code);
  }

  private emit(r: JqRun, send: (out: string) => void): void {
    if (r.messages) this.io.stderr.write(`${r.messages}\n`);
    this.print(r.results, send);
  }

  /** Results of jq (compact JSON, one each) written as jq prints them: strings raw, the rest as they are. */
  private print(results: string[], send: (out: string) => void): void {
    if (results.length === 0) return;
    let out = '';
    for (const value of results) {
      out += `${this.io.stdoutIsTTY ? onTerminal(printed(value)) : printed(value)}\n`;
    }
    this.results += results.length;
    this.last = results[results.length - 1];
    send(out);
  }

  async end({ gate = true }: { gate?: boolean } = {}): Promise<void> {
    this.io.flushOut();
    this.io.setOutputFilter(undefined);
    if (this.mode === 'json') {
      // Each result is written as jq yields it (`range(1e9) | head -1` ends at once).
      const r = await this.document.run((results) => this.print(results, (out) => this.io.out(out)));
      if (r.halt) this.halt(r, (out) => this.io.out(out));
      this.emit(r, (out) => this.io.out(out));
      if (r.error)
        throw new JqRunError(
          `jq: ${r.error.message}${r.error.line !== undefined ? ' (in the JSON document)' : ''}`,
        );
    } else {
      if (this.partial.trim() !== '') {
        const rest = `${this.partial}\n`;
        this.partial = '';
        this.queue(() => this.ndjson(rest, (out) => this.io.out(out)));
      }
      await this.chain;
      if (this.failure !== undefined) throw this.failure;
    }
    if (this.opts.exitStatus && gate) {
      // As jq -e: the last result decides, silently: false or null exit 1, no result at all exit 4 (jq's code;
      // cssctl's "forbidden" otherwise, but this is jq's answer, as its exit code).
      if (this.results === 0) throw new SilentExit('--jq-exit-status: the filter gave no result', 4);
      if (this.last === 'false' || this.last === 'null')
        throw new SilentExit(`--jq-exit-status: the last result is ${this.last}`, 1);
    }
  }

  abandon(): void {
    // A json document cut short is not filtered (a `length` of half a list would look like an answer), nor
    // printed as it is. With ndjson the rows already read are still filtered (the sink waits for them before it
    // finishes, for a moment after an interruption: INTERRUPT_GRACE_MS), so the resume command starts after them.
    this.abandoned = true;
    this.document.drop();
  }
}

/** A string result prints raw (as jq -r); anything else as the compact JSON jq wrote. */
function printed(value: string): string {
  return value.startsWith('"') ? (JSON.parse(value) as string) : value;
}

/** On a terminal, a raw string keeps its lines but loses every control (cli-contract.md §3). */
function onTerminal(text: string): string {
  return text.split('\n').map(terminalText).join('\n');
}

function countLines(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** `, id "fnd_1"` when the item is an object with an id. */
function idOf(line: string): string {
  try {
    const v = JSON.parse(line) as unknown;
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      const id = (v as Record<string, unknown>).id;
      if (typeof id === 'string' || typeof id === 'number') return `, id ${JSON.stringify(id)}`;
    }
  } catch {
    // not JSON: the item number is enough
  }
  return '';
}
