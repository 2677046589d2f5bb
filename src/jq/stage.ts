// --jq on the output path (cli-contract.md §10). Everything a command writes to stdout passes through here
// (src/core/sink.ts): with -o json the text is kept and the filter runs once, at the end, over the whole
// document (for --all/--paginate the whole list, so `length` and `group_by` see every item — memory grows
// with the list, as the document does); with -o ndjson the filter runs over each chunk of lines as the sink
// hands them on (64 KiB at most, or what was written before the command paused), so memory stays flat.
import { CliError, SilentExit, UsageError } from '../core/errors.js';
import type { IO } from '../core/io.js';
import { terminalText } from '../core/terminal-text.js';
import { JqProgram, type JqRun } from './engine.js';
import type { JqOptions } from './flags.js';

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
  // OCSF events are ndjson too (one event a line): the filter runs on each event as it streams.
  if (o === 'ocsf') return 'ndjson';
  throw new UsageError(`--jq works with -o json, ndjson or ocsf, not -o ${output}`);
}

/**
 * Compiles the filter (exit 2 with jq's message when it does not compile, before any request) and puts the
 * stage on stdout.
 */
export async function installJq(io: IO, opts: JqOptions, mode: JqMode): Promise<JqStage> {
  const compiled = await JqProgram.compile(opts.filter, opts.varFlags);
  if ('error' in compiled) throw new UsageError(`--jq: ${compiled.error}`);
  const stage = new Stage(io, compiled.program, opts, mode);
  io.setOutputFilter((text, send) => stage.write(text, send));
  return stage;
}

class Stage implements JqStage {
  private readonly held: string[] = [];
  /** The text after the last newline (ndjson), kept for the next chunk. */
  private partial = '';
  /** ndjson lines read so far (for naming an item). */
  private lines = 0;
  private last?: string;
  private results = 0;

  constructor(
    private readonly io: IO,
    private readonly program: JqProgram,
    private readonly opts: JqOptions,
    private readonly mode: JqMode,
  ) {}

  write(text: string, send: (out: string) => void): void {
    if (this.mode === 'json') {
      this.held.push(text);
      return;
    }
    const all = this.partial + text;
    const cut = all.lastIndexOf('\n');
    this.partial = all.slice(cut + 1);
    if (cut < 0) return;
    this.ndjson(all.slice(0, cut + 1), send);
  }

  private ndjson(chunk: string, send: (out: string) => void): void {
    const r = this.program.run(chunk);
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
    // jq goes on after an error; cssctl stops at the first one: the item jq names is checked (the lines before
    // it run clean, the item alone fails), the results of the lines before it are written, then the error
    // names the item.
    const lines = chunk.split('\n');
    if (lines.at(-1) === '') lines.pop();
    const { at, before, error } = this.firstFailing(lines, r.error.line);
    if (before) this.emit(before, send);
    throw new JqRunError(`jq: ${error} (at item ${this.lines + at}${idOf(lines[at - 1] ?? '')})`);
  }

  /**
   * The first of `lines` whose run fails, starting from the line jq named (`hint`, 1-based): back while the
   * lines before it fail, forward while it runs clean on its own. With the run of the lines before it.
   */
  private firstFailing(lines: string[], hint: number): { at: number; before?: JqRun; error: string } {
    const runLines = (from: number, to: number) => this.program.run(`${lines.slice(from, to).join('\n')}\n`);
    let at = Math.min(Math.max(hint, 1), lines.length);
    let before: JqRun | undefined;
    for (;;) {
      before = at > 1 ? runLines(0, at - 1) : undefined;
      if (!before?.error) break;
      at = Math.min(Math.max(before.error.line ?? at - 1, 1), at - 1);
    }
    for (;;) {
      const alone = runLines(at - 1, at);
      if (alone.error || at >= lines.length) return { at, before, error: alone.error?.message ?? 'error' };
      at++;
      before = runLines(0, at - 1);
    }
  }

  private emit(r: JqRun, send: (out: string) => void): void {
    if (r.messages) this.io.stderr.write(`${r.messages}\n`);
    if (r.results.length === 0) return;
    let out = '';
    for (const value of r.results) {
      out += `${this.io.stdoutIsTTY ? onTerminal(printed(value)) : printed(value)}\n`;
    }
    this.results += r.results.length;
    this.last = r.results[r.results.length - 1];
    send(out);
  }

  async end({ gate = true }: { gate?: boolean } = {}): Promise<void> {
    this.io.flushOut();
    this.io.setOutputFilter(undefined);
    if (this.mode === 'json') {
      const text = this.held.join('');
      this.held.length = 0;
      const r = this.program.run(text);
      this.emit(r, (out) => this.io.out(out));
      if (r.error)
        throw new JqRunError(
          `jq: ${r.error.message}${r.error.line !== undefined ? ' (in the JSON document)' : ''}`,
        );
    } else if (this.partial.trim() !== '') {
      const rest = `${this.partial}\n`;
      this.partial = '';
      this.ndjson(rest, (out) => this.io.out(out));
    }
    if (this.opts.exitStatus && gate) {
      // As jq -e: the last result decides, silently; no result at all is a failure too (jq's own code for that, 4, is
      // cssctl's "forbidden").
      if (this.results === 0) throw new SilentExit('--jq-exit-status: the filter gave no result', 1);
      if (this.last === 'false' || this.last === 'null')
        throw new SilentExit(`--jq-exit-status: the last result is ${this.last}`, 1);
    }
  }

  abandon(): void {
    // A json document cut short is not filtered (a `length` of half a list would look like an answer).
    this.held.length = 0;
    if (this.mode === 'json') this.io.setOutputFilter(undefined);
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
