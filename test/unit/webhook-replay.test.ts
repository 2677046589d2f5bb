// `webhooks replay` as a verb, with a fake sender and clock: order, warnings, and a run that goes on past a
// receiver that cannot be reached or a file that changed after it was checked.
import { execFileSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { replay as replayVerb, type ReplayOptions } from '../../src/commands/webhooks/replay.js';
import { FakeContext } from '../helpers/fake-context.js';
import { runVerb } from '../helpers/verb.js';
import { toSaved } from '../../src/commands/webhooks/saved.js';
import { ExitError, UsageError } from '../../src/core/errors.js';
import type { PlainRequest } from '../../src/core/http/plain.js';

const sig = (secret: string, body: string | Buffer) =>
  `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cssctl-replay-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Writes a saved delivery; `edit` changes the object before it is written. */
function saved(
  name: string,
  at: string,
  body: string,
  edit: (s: Record<string, unknown>) => void = () => {},
) {
  const s = toSaved(
    new Date(at),
    'scan.completed',
    { 'x-service-signature': sig('old', body) },
    Buffer.from(body),
  ) as unknown as Record<string, unknown>;
  edit(s);
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(s));
  return path;
}

function fake(
  answer: (req: PlainRequest, n: number) => Promise<{ status: number }> | { status: number },
  env: Record<string, string> = {},
) {
  const sent: PlainRequest[] = [];
  const ctx: FakeContext = new FakeContext({
    env,
    service: async (req) => {
      sent.push(req);
      ctx.clock.t += 7; // each answer takes 7 ms
      const res = await answer(req, sent.length);
      return { status: res.status, headers: {}, body: '' };
    },
  });
  return { ctx, stdout: ctx.stdout, stderr: ctx.stderr, sent };
}

const replay = (ctx: FakeContext, opts: ReplayOptions, paths: string[]) =>
  runVerb(ctx, replayVerb, opts, paths);

describe('replay', () => {
  it('sends oldest first whatever the order named, the exact bytes and the saved signature', async () => {
    const b = saved('b.json', '2026-11-25T08:00:02.000Z', '{"n":2}');
    const a = saved('a.json', '2026-11-25T08:00:01.000Z', '{"n":1}');
    const { ctx, stdout, sent } = fake(() => ({ status: 204 }));
    await replay(ctx, { to: 'http://127.0.0.1:9/hook' }, [b, a]);
    expect(sent.map((r) => Buffer.from(r.body as Uint8Array).toString())).toEqual(['{"n":1}', '{"n":2}']);
    expect(sent.map((r) => r.headers?.['x-service-signature'])).toEqual([
      sig('old', '{"n":1}'),
      sig('old', '{"n":2}'),
    ]);
    expect(sent[0]).toMatchObject({ method: 'POST', url: 'http://127.0.0.1:9/hook' });
    expect(stdout.text).toBe(
      '2026-11-25T08:00:01.000Z  scan.completed  a.json -> HTTP 204 (7 ms)\n2026-11-25T08:00:02.000Z  scan.completed  b.json -> HTTP 204 (7 ms)\n',
    );
  });

  it('--resign signs with the current secret, and never shows it', async () => {
    const a = saved('a.json', '2026-11-25T08:00:01.000Z', '{"n":1}');
    const { ctx, stderr, sent } = fake(() => ({ status: 200 }), { CSSCTL_WEBHOOK_SECRET: 'new-secret' });
    await replay(ctx, { to: 'http://127.0.0.1:9/', resign: true }, [a]);
    expect(sent[0]!.headers?.['x-service-signature']).toBe(sig('new-secret', '{"n":1}'));
    expect(stderr.text).not.toContain('new-secret');
  });

  it('warns when a body was edited after it was saved, or has no signature to send', async () => {
    const edited = saved('a.json', '2026-11-25T08:00:01.000Z', '{"n":1}', (s) => (s.body = '{"n":10}'));
    const bare = saved('b.json', '2026-11-25T08:00:02.000Z', '{"n":2}', (s) => (s.headers = {}));
    const { ctx, stderr, sent } = fake(() => ({ status: 200 }));
    await replay(ctx, { to: 'http://127.0.0.1:9/' }, [edited, bare]);
    expect(stderr.text).toMatch(/warning: a\.json: the body was changed after it was saved.*--resign/);
    expect(stderr.text).toMatch(/warning: b\.json has no saved x-service-signature header/);
    expect(Buffer.from(sent[0]!.body as Uint8Array).toString()).toBe('{"n":10}');
    expect(sent[1]!.headers?.['x-service-signature']).toBeUndefined();
  });

  it('goes on past an unreachable receiver and a file changed after the check, then exits 1', async () => {
    const a = saved('a.json', '2026-11-25T08:00:01.000Z', '{"n":1}');
    const b = saved('b.json', '2026-11-25T08:00:02.000Z', '{"n":2}');
    const c = saved('c.json', '2026-11-25T08:00:03.000Z', '{"n":3}');
    const { ctx, stdout, sent } = fake((_req, n) => {
      if (n === 1) {
        writeFileSync(b, 'gone');
        throw new Error('cannot connect to 127.0.0.1:9: connection refused');
      }
      return { status: 500 };
    });
    const run = replay(ctx, { to: 'http://127.0.0.1:9/' }, [a, b, c]);
    await expect(run).rejects.toThrow(ExitError);
    await expect(run).rejects.toThrow('3 of 3 deliveries were not answered 2xx by http://127.0.0.1:9/');
    expect(sent).toHaveLength(2);
    const out = stdout.text.split('\n');
    expect(out[0]).toMatch(/a\.json -> error: cannot connect to 127\.0\.0\.1:9: connection refused/);
    expect(out[1]).toMatch(/b\.json -> error: .*b\.json is not a saved delivery: not JSON/);
    expect(out[2]).toMatch(/c\.json -> HTTP 500/);
  });

  it('checks everything before sending: a bad file, --secret-file without --resign, a bad URL', async () => {
    const a = saved('a.json', '2026-11-25T08:00:01.000Z', '{"n":1}');
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '[]');
    const { ctx, sent } = fake(() => ({ status: 200 }));
    await expect(replay(ctx, { to: 'http://127.0.0.1:9/' }, [a, bad])).rejects.toThrow(UsageError);
    await expect(replay(ctx, { to: 'http://127.0.0.1:9/', secretFile: a }, [a])).rejects.toThrow(
      /only with --resign/,
    );
    await expect(replay(ctx, { to: 'http://10.0.0.1/' }, [a])).rejects.toThrow(/only for loopback/);
    expect(sent).toEqual([]);
  });

  it('refuses a FIFO among the files at once, instead of blocking on it (and on Ctrl-C)', async () => {
    const a = saved('a.json', '2026-11-25T08:00:01.000Z', '{"n":1}');
    const fifo = join(dir, 'fifo.json');
    execFileSync('mkfifo', [fifo]);
    const { ctx, sent } = fake(() => ({ status: 200 }));
    await expect(replay(ctx, { to: 'http://127.0.0.1:9/' }, [a, fifo])).rejects.toThrow(
      /fifo\.json is not a saved delivery: not a regular file/,
    );
    await expect(replay(ctx, { to: 'http://127.0.0.1:9/' }, [dir])).rejects.toThrow(/not a regular file/);
    expect(sent).toEqual([]);
  });
});
