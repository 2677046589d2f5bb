// The IO of one tool call (cli-contract.md §13). Its stdout is never the process's stdout, which carries
// JSON-RPC and nothing else: a verb writes no data there anyway (it returns a result), and a write that
// happened all the same fails here instead of corrupting the protocol. Messages go to the server's stderr:
// warnings always, --verbose lines when asked, notices and hints never (--quiet); all without colour, and
// redacted with the server's one set of secrets. A spinner and a progress line become notifications/progress
// when the call's request carried a progressToken.
import { PassThrough, Writable } from 'node:stream';
import { IO, type Spinner } from '../core/io.js';
import type { CallProgress } from './progress.js';

/** The longest a wait goes without a progress notification (the contract's bound is 10 s). */
export const TICK_MS = 5000;

/** A stdout that takes nothing. */
class NoStdout extends Writable {
  override _write(_chunk: unknown, _enc: BufferEncoding, cb: (err?: Error | null) => void): void {
    cb(new Error('a tool call wrote to stdout, which carries the protocol'));
  }
}

export class CallIO extends IO {
  constructor(
    private readonly server: IO,
    env: NodeJS.ProcessEnv,
    private readonly report?: CallProgress,
  ) {
    const stdin = new PassThrough();
    stdin.end();
    super(
      { stdin, stdout: new NoStdout(), stderr: server.stderr },
      { env, quiet: true, verbose: server.verbose, noColorFlag: true },
    );
    if (report) this.progress = report;
  }

  /** One set of secrets for the server and every call: a token one call's refresh brought is redacted in all. */
  override addSecret(value: string | undefined): void {
    this.server.addSecret(value);
  }

  override redact(text: string): string {
    return this.server.redact(text);
  }

  /** Messages say what happened in cssctl's own words, quoting no value from the service (§13). */
  override get quotesService(): boolean {
    return false;
  }

  /** A wait's status is told again while it lasts, when the call asked for progress. */
  override get ticking(): boolean {
    return this.report !== undefined;
  }

  /**
   * A notice (a retry's wait, a rate-limit wait outside a read of many pages) is a progress notification when
   * the call asked for progress: a wait is never silent (§13). Otherwise nothing, as with --quiet.
   */
  override notice(text: string): void {
    this.report?.message(this.redact(withoutFlagHint(text)));
  }

  /**
   * A wait's status (`Scan scn_1: running (12s)`) as a progress notification; nothing is drawn. The wait tells
   * it every second (ticking): a notification goes when the status changes, else every TICK_MS, so a long poll
   * interval is never a silence of more than that.
   */
  override async spinner(text: string): Promise<Spinner> {
    let said = '';
    let at = -Infinity;
    const say = (t: string) => {
      const status = t.replace(/ \([^()]*\)$/, '');
      const now = performance.now();
      if (status === said && now - at < TICK_MS) return;
      said = status;
      at = now;
      this.report?.message(this.redact(t));
    };
    say(text);
    return { update: say, stop() {} };
  }
}

/**
 * A notice without the terminal's closing hint that names a flag (`3 findings ignored by .cssctl-ignore.yaml
 * (--no-ignore to show them)`): an assistant cannot pass a flag, and the tool's own parameters say what it can do.
 */
export function withoutFlagHint(text: string): string {
  return text.replace(/ \((?:[^()]*\s)?--[a-z][\w-]*[^()]*\)$/, '');
}
