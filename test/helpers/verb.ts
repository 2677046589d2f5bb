// Runs a verb as gh tests its commands: the verb's run function with a fake context (test/helpers/fake-context.ts)
// — IO buffers, a scripted transport under the product's own client, retry and rate-limit layers, a fake clock —
// and no binary, no socket.
import { outcomeError, render } from '../../src/cli/render.js';
import type { Verb } from '../../src/report/result.js';
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
  run<O>(verb: Verb<O>, opts: O, args?: string[]): Promise<number>;
}

/**
 * Runs a verb on a context as the CLI does — its result rendered by the terminal's renderer, its outcome mapped
 * to an error — and throws what the command would end with.
 */
export async function runVerb<O>(ctx: Context, verb: Verb<O>, opts: O, args: string[] = []): Promise<void> {
  const failure = outcomeError(await render(ctx, await verb(ctx, opts, args)));
  const unwritten = await ctx.io.finishOutput();
  if (failure) throw failure;
  if (unwritten) throw unwritten;
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
        // The terminal's own renderer and exit-code map (src/cli/render.ts), as the CLI runs a verb.
        const failure =
          outcomeError(await render(ctx, await verb(ctx, o, args))) ?? (await io.finishOutput());
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
