// Runs a verb as gh tests its commands: the verb's run function with a fake context (test/helpers/fake-context.ts)
// — IO buffers, a scripted transport under the product's own client, retry and rate-limit layers, a fake clock —
// and no binary, no socket.
import type { Context } from '../../src/core/context.js';
import { exitCodeFor } from '../../src/core/errors.js';
import { FakeContext, type FakeContextInit } from './fake-context.js';
import type { FakeClock } from './fake-clock.js';
import type { Reply } from './fake-send.js';
import type { Collect } from './streams.js';

export interface VerbWorld {
  ctx: FakeContext;
  stdout: Collect;
  stderr: Collect;
  clock: FakeClock;
  /** Every request sent, in order. */
  sent: FakeContext['sent'];
  /** The paths and queries of the requests, as `GET /scans/scn_1?limit=1`. */
  requests(): string[];
  /** Runs a verb; resolves to its exit code (0, or what cssctl would exit with). */
  run<O>(
    verb: (ctx: Context, opts: O, args: string[]) => Promise<void>,
    opts: O,
    args?: string[],
  ): Promise<number>;
}

/** A JSON reply. */
export function json(body: unknown, status = 200): Reply {
  return { status, body: JSON.stringify(body) };
}

export function verbWorld(
  replies: Reply[],
  opts: { output?: string } & Omit<FakeContextInit, 'replies'> = {},
): VerbWorld {
  const { output, ...rest } = opts;
  const ctx = new FakeContext({
    ...rest,
    replies,
    globals: { ...(output === undefined ? {} : { output }), ...rest.globals },
  });
  return {
    ctx,
    stdout: ctx.stdout,
    stderr: ctx.stderr,
    clock: ctx.clock,
    sent: ctx.sent,
    requests: () => ctx.requests(),
    async run(verb, o, args = []) {
      const { io } = ctx;
      try {
        await verb(ctx, o, args);
        const failure = await io.finishOutput();
        if (failure) throw failure;
        return 0;
      } catch (err) {
        io.flushOut();
        ctx.stderr.write(`error: ${(err as Error).message}\n`);
        return exitCodeFor(err);
      }
    },
  };
}
