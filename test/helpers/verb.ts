// Runs a verb as gh tests its commands: the verb's run function with a fake context — IO buffers, a scripted
// transport behind a real ApiClient (so URLs, headers and error parsing are the product's own), a fake clock —
// and no binary, no socket.
import { PassThrough } from 'node:stream';
import type { Context } from '../../src/core/context.js';
import { resolveSettings } from '../../src/core/context.js';
import type { Credentials } from '../../src/core/credentials.js';
import { exitCodeFor } from '../../src/core/errors.js';
import { ApiClient } from '../../src/core/http/client.js';
import { Session } from '../../src/core/http/session.js';
import { IO } from '../../src/core/io.js';
import { FakeClock } from './fake-clock.js';
import { scripted, type Reply } from './fake-send.js';
import { Collect } from './streams.js';

export interface VerbWorld {
  ctx: Context;
  stdout: Collect;
  stderr: Collect;
  clock: FakeClock;
  /** Every request sent, in order. */
  sent: ReturnType<typeof scripted>['sent'];
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
  opts: { output?: string; argv?: string[]; env?: NodeJS.ProcessEnv } = {},
): VerbWorld {
  const clock = new FakeClock();
  const t = scripted(clock, replies);
  const stdout = new Collect();
  const stderr = new Collect();
  const env = { CSSCTL_POLL_BASE_MS: '1000', ...opts.env };
  const io = new IO({ stdin: new PassThrough(), stdout, stderr }, { env: {} });
  const settings = resolveSettings({ output: opts.output }, {}, {}, 'default');
  const session = new Session({
    profile: 'default',
    credentials: {} as Credentials,
    clock,
    envToken: 'test-token',
    refresh: () => Promise.reject(new Error('no refresh in verb tests')),
    lock: (fn) => fn(),
  });
  const signal = new AbortController().signal;
  const client = new ApiClient({
    baseUrl: 'http://127.0.0.1:1',
    workspace: 'acme',
    send: t.send,
    session: async () => session,
    signal,
  });
  const ctx = {
    io,
    env,
    argv: opts.argv ?? [],
    signal,
    clock,
    globals: { output: opts.output },
    settings: async () => settings,
    settingsSync: () => settings,
    api: async () => client,
  } as unknown as Context;
  return {
    ctx,
    stdout,
    stderr,
    clock,
    sent: t.sent,
    requests: () =>
      t.sent.map(({ req }) => {
        const u = new URL(req.url);
        return `${req.method} ${u.pathname.replace(/^\/api\/v1/, '')}${u.search}`;
      }),
    async run(verb, o, args = []) {
      try {
        await verb(ctx, o, args);
        const failure = await io.finishOutput();
        if (failure) throw failure;
        return 0;
      } catch (err) {
        io.flushOut();
        stderr.write(`error: ${(err as Error).message}\n`);
        return exitCodeFor(err);
      }
    },
  };
}
