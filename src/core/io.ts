import type { Readable, Writable } from 'node:stream';
import { Chalk, type ChalkInstance } from 'chalk';
import type { CliError } from './errors.js';
import type { Progress } from './progress.js';
import { OutputSink, type OutputFilter } from './sink.js';
import { terminalText } from './terminal-text.js';

export interface Streams {
  stdin: Readable & { isTTY?: boolean };
  stdout: Writable & { isTTY?: boolean };
  stderr: Writable & { isTTY?: boolean; columns?: number };
}

export interface IOOptions {
  /** --no-color given on the command line. */
  noColorFlag?: boolean;
  quiet?: boolean;
  verbose?: boolean;
  env: NodeJS.ProcessEnv;
}

/**
 * Spinners and progress lines need a terminal at least this wide (cli-contract.md §3). A terminal that says
 * it has 0 columns (`script`, `docker -t`, some CI runners) would make ora count its lines as Infinity and
 * clear lines without end; one narrower than this has no room for the text anyway.
 */
export const MIN_SPINNER_COLUMNS = 20;

/** Whether a stream reports a width of at least MIN_SPINNER_COLUMNS (no width reported: not wide enough). */
export function wideEnough(stream: { columns?: number }): boolean {
  const c = stream.columns;
  return typeof c === 'number' && Number.isFinite(c) && c >= MIN_SPINNER_COLUMNS;
}

export interface Spinner {
  update(text: string): void;
  stop(): void;
}

/**
 * One object decides what a terminal gets: colour, spinners, prompts, notices. Everything written to stderr
 * passes through `redact`, so a secret that cssctl knows about can never be printed there by accident.
 */
export class IO {
  readonly stdout: Streams['stdout'];
  readonly stderr: Streams['stderr'];
  readonly quiet: boolean;
  readonly verbose: boolean;
  readonly isCI: boolean;
  /** Colour for data on stdout. */
  readonly color: ChalkInstance;
  /** Colour for messages on stderr. */
  readonly errColor: ChalkInstance;
  /** The progress line of a long read (src/core/progress.ts), once one was made, or a front end's own report. */
  progress?: Progress;
  private readonly secrets = new Set<string>();
  private readonly sink: OutputSink;

  constructor(
    private readonly streams: Streams,
    opts: IOOptions,
  ) {
    this.stdout = streams.stdout;
    this.sink = new OutputSink(streams.stdout);
    this.stderr = streams.stderr;
    this.quiet = opts.quiet ?? false;
    this.verbose = opts.verbose ?? false;
    this.isCI = isTruthy(opts.env.CI);
    this.color = new Chalk({ level: colorLevel(Boolean(this.stdout.isTTY), opts) });
    this.errColor = new Chalk({ level: colorLevel(Boolean(this.stderr.isTTY), opts) });
  }

  /** Read from the streams when first used: Node builds process.stdin (~4 ms) only when it is asked for. */
  get stdin(): Streams['stdin'] {
    return this.streams.stdin;
  }

  get stdoutIsTTY(): boolean {
    return Boolean(this.stdout.isTTY);
  }

  /** Whether we may ask the user something: both ends of the conversation are a terminal. */
  get canPrompt(): boolean {
    return Boolean(this.stdin.isTTY && this.stderr.isTTY);
  }

  /**
   * Whether messages may quote values from the service (a scan's status, say): on a terminal, yes; the MCP
   * server's calls say what happened in cssctl's own words instead (cli-contract.md §13), so an assistant never
   * reads the service's text as cssctl's.
   */
  get quotesService(): boolean {
    return true;
  }

  /** Whether a wait's status is told again every second (a spinner's elapsed time; the MCP server's progress). */
  get ticking(): boolean {
    return this.spinnersEnabled;
  }

  /** A TTY stderr at least MIN_SPINNER_COLUMNS wide, not --quiet, not CI. */
  get spinnersEnabled(): boolean {
    return Boolean(this.stderr.isTTY) && !this.quiet && !this.isCI && wideEnough(this.stderr);
  }

  /** Registers a value that must never be printed to stderr (tokens, passwords, secrets). */
  addSecret(value: string | undefined): void {
    if (value && value.length >= 4) this.secrets.add(value);
  }

  /** The values registered with addSecret (the MCP server masks their other forms too: src/mcp/secrets.ts). */
  secretValues(): string[] {
    return [...this.secrets];
  }

  redact(text: string): string {
    let out = text;
    for (const s of this.secrets) if (out.includes(s)) out = out.split(s).join('[REDACTED]');
    return out;
  }

  /** Data for stdout, written at once. */
  out(text: string): void {
    if (this.progress && this.stdoutIsTTY) this.progress.clear(); // one terminal: the data takes the line
    this.sink.write(text);
  }

  /**
   * Data for stdout from a loop over many items: gathered into large writes. Await `outReady()` between
   * items (backpressure, and a write error stops the loop) and call `flushOut()` when the loop ends.
   */
  outBatched(text: string): void {
    if (this.progress && this.stdoutIsTTY) this.progress.clear();
    this.sink.batched(text);
  }

  /** Undefined while stdout keeps up; else a promise for 'drain', rejected once a write has failed. */
  outReady(): Promise<void> | undefined {
    return this.sink.ready();
  }

  flushOut(): void {
    this.sink.flush();
  }

  /** Text for stdout passes through `filter` first (--jq); undefined takes it away. */
  setOutputFilter(filter: OutputFilter | undefined): void {
    this.sink.filter = filter;
  }

  /** Writes all pending output and waits for stdout to take it; the write error, if one happened. */
  finishOutput(): Promise<CliError | undefined> {
    this.progress?.end();
    return this.sink.finish();
  }

  /** The first error stdout reported (a full disk, a closed pipe). */
  get outputFailure(): NodeJS.ErrnoException | undefined {
    return this.sink.error;
  }

  // Notices, hints, warnings and spinners may carry text from the service: it is made terminal-safe here.

  /** Progress and informational lines; silenced by --quiet. */
  notice(text: string): void {
    if (!this.quiet) this.writeErr(terminalText(text));
  }

  /** "✓ Created …"; silenced by --quiet. */
  success(text: string): void {
    if (!this.quiet) this.writeErr(`${this.errColor.green('✓')} ${terminalText(text)}`);
  }

  /** Hints such as "use --all"; silenced by --quiet. */
  hint(text: string): void {
    if (!this.quiet) this.writeErr(this.errColor.dim(terminalText(text)));
  }

  warn(text: string): void {
    this.writeErr(`${this.errColor.yellow('warning:')} ${terminalText(text)}`);
  }

  debug(text: string): void {
    if (this.verbose) this.writeErr(this.errColor.dim(text));
  }

  writeErr(line: string): void {
    this.sink.flush(); // data written before a message shows before it
    this.progress?.clear(); // the message takes the progress line's place; the next update redraws it
    this.stderr.write(this.redact(line.endsWith('\n') ? line : `${line}\n`));
  }

  /**
   * A spinner when spinnersEnabled; otherwise a no-op (and ora is never loaded). A terminal narrowed below
   * MIN_SPINNER_COLUMNS while it spins (a resize to 0) stops it for good, before its next frame.
   */
  async spinner(text: string): Promise<Spinner> {
    if (!this.spinnersEnabled) return { update() {}, stop() {} };
    const { default: ora } = await import('ora');
    const stderr = this.stderr;
    const s = ora({
      text: this.redact(terminalText(text)),
      stream: stderr,
      discardStdin: false,
    }).start();
    let stopped = false;
    const stop = () => {
      if (stopped) return;
      stopped = true;
      stderr.off('resize', onResize);
      s.stop();
    };
    // A tty.WriteStream updates `columns` and emits 'resize' together, on SIGWINCH.
    const onResize = () => {
      if (!wideEnough(stderr)) stop();
    };
    stderr.on('resize', onResize);
    return {
      update: (t) => {
        if (stopped) return;
        if (!wideEnough(stderr)) return stop();
        s.text = this.redact(terminalText(t));
      },
      stop,
    };
  }
}

function isTruthy(v: string | undefined): boolean {
  return v !== undefined && v !== '' && v !== '0' && v.toLowerCase() !== 'false';
}

/** --no-color beats FORCE_COLOR (flag over environment); FORCE_COLOR beats NO_COLOR; else colour on a TTY. */
function colorLevel(isTTY: boolean, opts: IOOptions): 0 | 1 | 2 | 3 {
  if (opts.noColorFlag) return 0;
  const force = opts.env.FORCE_COLOR;
  if (force !== undefined) {
    if (force === '0' || force === 'false') return 0;
    const n = Number(force);
    return n === 2 || n === 3 ? n : 1;
  }
  if (opts.env.NO_COLOR !== undefined && opts.env.NO_COLOR !== '') return 0;
  if (opts.env.TERM === 'dumb') return 0;
  return isTTY ? 1 : 0;
}
