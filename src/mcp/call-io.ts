// The IO of one tool call (cli-contract.md §13). Its stdout is never the process's stdout, which carries
// JSON-RPC and nothing else: a verb writes no data there anyway (it returns a result), and a write that
// happened all the same fails here instead of corrupting the protocol. Messages go to the server's stderr:
// warnings always, --verbose lines when asked, notices and hints never (--quiet); all without colour, and
// redacted with the server's one set of secrets. A spinner and a progress line become notifications/progress
// when the call's request carried a progressToken.
import { PassThrough, Writable } from 'node:stream';
import { IO, type Spinner } from '../core/io.js';
import type { CallProgress } from './progress.js';

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

  /** A wait's status (`Scan scn_1: running (12s)`) as a progress notification; nothing is drawn. */
  override async spinner(text: string): Promise<Spinner> {
    const say = (t: string) => this.report?.message(this.redact(t));
    say(text);
    return { update: say, stop() {} };
  }
}
