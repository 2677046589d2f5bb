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
import type { HttpRequest } from '../../src/core/http/types.js';
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
  /**
   * Runs a verb; resolves to its exit code (0, or what cssctl would exit with). `args` as any list of words (a
   * verb's own checks of missing or extra ones are tested too), where commander would give its declared ones.
   */
  run<O, A extends string[]>(verb: Verb<O, A>, opts: O, args?: string[]): Promise<number>;
}

/**
 * Runs a verb on a context as the CLI does — its result rendered by the terminal's renderer, its outcome mapped
 * to an error — and throws what the command would end with.
 */
export async function runVerb<O, A extends string[]>(
  ctx: Context,
  verb: Verb<O, A>,
  opts: O,
  args: string[] = [],
): Promise<void> {
  const failure = outcomeError(await render(ctx, await verb(ctx, opts, args as A)));
  const unwritten = await ctx.io.finishOutput();
  if (failure) throw failure;
  if (unwritten) throw unwritten;
}

/** What runVerb threw (the command's error, its hint and exit code), or undefined when it ended with exit 0. */
export async function failureOf<O, A extends string[]>(
  ctx: Context,
  verb: Verb<O, A>,
  opts: O,
  args: string[] = [],
): Promise<(Error & { hint?: string; exit: number }) | undefined> {
  try {
    await runVerb(ctx, verb, opts, args);
    return undefined;
  } catch (err) {
    return Object.assign(err as Error & { hint?: string }, { exit: exitCodeFor(err) });
  }
}

/** The JSON body of a request that was sent. */
export function bodyOf(sent: { req: HttpRequest }): unknown {
  const { body } = sent.req;
  if (body === undefined) return undefined;
  return JSON.parse(typeof body === 'string' ? body : Buffer.from(body).toString('utf8'));
}

/** A finding as the service lists it: `id`'s title and resource, connection prod; `over` adds or replaces. */
export function findingOf(id: string, severity: string, over: Record<string, unknown> = {}) {
  return {
    id,
    severity,
    title: `Title ${id}`,
    resource: `arn:aws:s3:::${id}`,
    connection_alias: 'prod',
    ...over,
  };
}

/** A completed scan of prod, scn_1, with 2 critical and 4 high findings; `over` adds or replaces. */
export function scanOf(over: Record<string, unknown> = {}) {
  return {
    scan_id: 'scn_1',
    connection_alias: 'prod',
    status: 'completed',
    total_findings: 6,
    critical_count: 2,
    high_count: 4,
    medium_count: 0,
    low_count: 0,
    info_count: 0,
    ...over,
  };
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
          outcomeError(await render(ctx, await verb(ctx, o, args as never))) ?? (await io.finishOutput());
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
