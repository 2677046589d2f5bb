// The webhooks verbs (create, list, delete, verify, listen, replay, trigger) through their run functions. The
// service and the receivers they send to are scripted (FakeContext's transport); `listen` runs a real receiver
// on 127.0.0.1 (port 0), sent a delivery with node:http and stopped with the fake's signal, as Ctrl-C would.
import { execFileSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { create } from '../../src/commands/webhooks/create.js';
import { remove } from '../../src/commands/webhooks/delete.js';
import { list } from '../../src/commands/webhooks/list.js';
import { listen, type ListenOptions } from '../../src/commands/webhooks/listen.js';
import { replay as replayVerb, type ReplayOptions } from '../../src/commands/webhooks/replay.js';
import { toSaved } from '../../src/commands/webhooks/saved.js';
import { deliveryLine } from '../../src/commands/webhooks/summary.js';
import { trigger } from '../../src/commands/webhooks/trigger.js';
import { verify } from '../../src/commands/webhooks/verify.js';
import { ExitError, UsageError } from '../../src/core/errors.js';
import type { PlainRequest } from '../../src/core/http/plain.js';
import { reportError } from '../../src/cli.js';
import { FakeContext } from '../helpers/fake-context.js';
import { bodyOf, failureOf, json, runVerb, verbWorld, type VerbWorld } from '../helpers/verb.js';

const sig = (secret: string, body: string | Buffer) =>
  `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

const SECRET = 'whsec-test-0123456789';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cssctl-webhooks-verb-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function pipe(text: string): PassThrough {
  const stdin = new PassThrough();
  stdin.end(text);
  return stdin;
}

/** A stdin that claims to be a terminal (nothing is ever typed). */
function terminal(): PassThrough & { isTTY: true } {
  return Object.assign(new PassThrough(), { isTTY: true as const });
}

/** Neither stream shows the secret. */
function expectNoSecret(w: VerbWorld, secret: string): void {
  expect(w.stdout.text).not.toContain(secret);
  expect(w.stderr.text).not.toContain(secret);
}

describe('webhooks create', () => {
  const hook = { id: 'wh_1', url: 'https://hooks.example.com/cssctl', events: ['scan.completed'] };

  it('POST /webhooks {url, events, secret}; no secret given: a 32-byte hex one is generated, shown once on stdout', async () => {
    const w = verbWorld([json({ ...hook, created_at: '2026-11-22T12:00:00Z' }, 201)]);
    const code = await w.run(create, { url: ' https://hooks.example.com/cssctl ', events: 'Scan.Completed' });
    expect(code, w.stderr.text).toBe(0);
    expect(w.requests()).toStrictEqual(['POST /webhooks']);
    const body = bodyOf(w.sent[0]!) as { url: string; events: string[]; secret: string };
    expect(body.url).toBe('https://hooks.example.com/cssctl');
    expect(body.events).toStrictEqual(['scan.completed']);
    expect(body.secret).toMatch(/^[0-9a-f]{64}$/);
    // The secret travels in the body, never in the URL.
    expect(w.sent[0]!.req.url).not.toContain(body.secret);
    expect(w.stdout.text.trimEnd().split('\n')).toStrictEqual([
      'ID       wh_1',
      'URL      https://hooks.example.com/cssctl',
      'EVENTS   scan.completed',
      'CREATED  2026-11-22 12:00',
      `SECRET   ${body.secret}`,
    ]);
    expect(w.stderr.text).toBe(
      '✓ Created webhook wh_1 for https://hooks.example.com/cssctl\n' +
        'This signing secret is shown only now: store it (receivers verify with it, e.g. CSSCTL_WEBHOOK_SECRET).\n',
    );
    expect(w.stderr.text).not.toContain(body.secret);
  });

  it('CSSCTL_WEBHOOK_SECRET is sent, never shown; `all` is the five events; -o json is the webhook', async () => {
    const w = verbWorld([json({ ...hook, secret: SECRET }, 201)], {
      output: 'json',
      env: { CSSCTL_WEBHOOK_SECRET: SECRET },
    });
    expect(await w.run(create, { url: hook.url, events: 'all' })).toBe(0);
    expect(bodyOf(w.sent[0]!)).toStrictEqual({
      url: hook.url,
      events: [
        'scan.completed',
        'scan.failed',
        'finding.critical',
        'finding.high',
        'compliance.score_dropped',
      ],
      secret: SECRET,
    });
    // The service echoed the secret: it is dropped from what is shown.
    expect(JSON.parse(w.stdout.text)).toStrictEqual(hook);
    expectNoSecret(w, SECRET);
  });

  it.each([[[1, 2]], ['created'], [42]])(
    'an answer that is not an object (%j): what was sent is shown, never its indices or characters',
    async (answer) => {
      const w = verbWorld([json(answer, 201)], { output: 'json', env: { CSSCTL_WEBHOOK_SECRET: SECRET } });
      expect(await w.run(create, { url: 'https://h.example/x', events: 'scan.failed' })).toBe(0);
      expect(JSON.parse(w.stdout.text)).toStrictEqual({
        url: 'https://h.example/x',
        events: ['scan.failed'],
      });
      expect(w.stderr.text).toBe('✓ Created webhook for https://h.example/x\n');
    },
  );

  it('--secret-stdin reads the secret from a pipe', async () => {
    const w = verbWorld([json(hook, 201)], { stdin: pipe(`${SECRET}\n`) });
    expect(await w.run(create, { url: hook.url, events: 'scan.completed', secretStdin: true })).toBe(0);
    expect((bodyOf(w.sent[0]!) as { secret: string }).secret).toBe(SECRET);
    expectNoSecret(w, SECRET);
  });

  it('http:// to a loopback host is allowed, with a warning', async () => {
    const w = verbWorld([json({ ...hook, url: 'http://127.0.0.1:8088/' }, 201)], {
      env: { CSSCTL_WEBHOOK_SECRET: SECRET },
    });
    expect(await w.run(create, { url: 'http://127.0.0.1:8088/', events: 'scan.failed' })).toBe(0);
    expect(w.stderr.text).toContain(
      'warning: 127.0.0.1:8088 gets deliveries over plain http (allowed for loopback hosts only)\n',
    );
  });

  it.each<[string, { url: string; events: string; secretStdin?: boolean }, RegExp]>([
    [
      'http:// elsewhere',
      { url: 'http://hooks.example.com/', events: 'all' },
      /plain http:\/\/ is allowed only for loopback hosts/,
    ],
    ['not a URL', { url: 'hooks', events: 'all' }, /--url "hooks" is not a URL/],
    [
      'credentials in the URL',
      { url: 'https://u:p@h.example/', events: 'all' },
      /must not contain credentials/,
    ],
    ['an unknown event', { url: 'https://h.example/', events: 'scan.done' }, /unknown event "scan\.done"/],
    ['no event', { url: 'https://h.example/', events: ' , ' }, /--events is empty/],
    [
      'all with others',
      { url: 'https://h.example/', events: 'all,scan.failed' },
      /--events all stands alone/,
    ],
    [
      '--secret-stdin on a terminal',
      { url: 'https://h.example/', events: 'all', secretStdin: true },
      /--secret-stdin reads the secret from a pipe/,
    ],
  ])('%s: exit 2 before any request', async (_, o, message) => {
    const w = verbWorld([], { stdin: terminal() });
    const err = await failureOf(w.ctx, create, o);
    expect(err?.exit).toBe(2);
    expect(err?.message).toMatch(message);
    expect(w.ctx.sent).toHaveLength(0);
  });

  it('rejected by the service (422): exit 7 with its detail; a secret it echoes never reaches stderr', async () => {
    const w = verbWorld([json({ detail: `secret ${SECRET} is too short`, field: 'secret' }, 422)], {
      env: { CSSCTL_WEBHOOK_SECRET: SECRET },
    });
    const err = await failureOf(w.ctx, create, { url: 'https://h.example/', events: 'all' });
    expect(err?.exit).toBe(7);
    // Printed as the CLI prints every error.
    reportError(w.ctx.io, err, false);
    expect(w.stderr.text).toContain('error: secret [REDACTED] is too short');
    expectNoSecret(w, SECRET);
    expect(w.stdout.text).toBe('');
  });
});

describe('webhooks list', () => {
  it('GET /webhooks: id, URL, events — never a secret, even one the service sends', async () => {
    const w = verbWorld([
      json({
        total: 1,
        webhooks: [
          {
            id: 'wh_1',
            url: 'https://h.example/x',
            events: ['scan.completed', 'finding.high'],
            secret: SECRET,
          },
        ],
        limit: 50,
        offset: 0,
      }),
    ]);
    expect(await w.run(list, {})).toBe(0);
    expect(w.requests()).toStrictEqual(['GET /webhooks']);
    expect(w.stdout.text.trimEnd().split('\n')).toStrictEqual([
      'ID    URL                  EVENTS',
      'wh_1  https://h.example/x  scan.completed,finding.high',
    ]);
    expectNoSecret(w, SECRET);
    const j = verbWorld([json([{ id: 'wh_1', url: 'https://h.example/x', events: [], secret: SECRET }])], {
      output: 'json',
    });
    expect(await j.run(list, { limit: 5 })).toBe(0);
    expect(j.requests()).toStrictEqual(['GET /webhooks?limit=5']);
    expect(JSON.parse(j.stdout.text)).toStrictEqual([{ id: 'wh_1', url: 'https://h.example/x', events: [] }]);
  });

  it('404 (a service without webhook listing): exit 5', async () => {
    const w = verbWorld([json({ detail: 'not found' }, 404)]);
    expect(await w.run(list, {})).toBe(5);
  });
});

describe('webhooks delete', () => {
  it('DELETE /webhooks/{id}, the id encoded; a success line on stderr, nothing on stdout', async () => {
    const w = verbWorld([{ status: 204, body: '' }]);
    expect(await w.run(remove, {}, [' wh 1/x '])).toBe(0);
    expect(w.sent[0]!.req.method).toBe('DELETE');
    expect(w.sent[0]!.req.url).toBe('http://127.0.0.1:1/api/v1/webhooks/wh%201%2Fx');
    expect(w.stderr.text).toBe('✓ Deleted webhook wh 1/x\n');
    expect(w.stdout.text).toBe('');
  });

  it('no id: exit 2 before any request; an unknown one: exit 5', async () => {
    const w = verbWorld([]);
    expect(await w.run(remove, {}, ['  '])).toBe(2);
    expect(w.stderr.text).toBe('error: a webhook id is required (see cssctl webhooks list)\n');
    expect(w.sent).toHaveLength(0);
    const gone = verbWorld([json({ detail: 'webhook "wh_9" not found' }, 404)]);
    expect(await gone.run(remove, {}, ['wh_9'])).toBe(5);
    expect(gone.stderr.text).not.toContain('Deleted');
  });
});

describe('webhooks verify', () => {
  const payload = '{"event":"scan.completed","data":{"scan_id":"scn_1"}}';

  function payloadFile(text: string | Buffer = payload): string {
    const path = join(dir, 'payload.json');
    writeFileSync(path, text);
    return path;
  }

  it('a valid signature over the file’s bytes: exit 0, said on stderr; -o json: {"valid": true}', async () => {
    const w = verbWorld([], { env: { CSSCTL_WEBHOOK_SECRET: SECRET } });
    expect(await w.run(verify, { signature: sig(SECRET, payload), payloadFile: payloadFile() })).toBe(0);
    expect(w.stderr.text).toBe('✓ The signature is valid.\n');
    expect(w.stdout.text).toBe('');
    const j = verbWorld([], { output: 'json', env: { CSSCTL_WEBHOOK_SECRET: SECRET } });
    expect(await j.run(verify, { signature: sig(SECRET, payload), payloadFile: payloadFile() })).toBe(0);
    expect(j.stdout.text).toBe('{"valid":true}\n');
    expect(w.sent).toHaveLength(0);
  });

  it('the payload on stdin; the secret from --secret-file (a flag wins over the environment)', async () => {
    const secretFile = join(dir, 'secret');
    writeFileSync(secretFile, 'file-secret-456\n');
    const w = verbWorld([], { stdin: pipe(payload), env: { CSSCTL_WEBHOOK_SECRET: SECRET } });
    expect(await w.run(verify, { signature: sig('file-secret-456', payload), secretFile })).toBe(0);
    expectNoSecret(w, 'file-secret-456');
  });

  it.each<[string, () => string, string]>([
    [
      'another secret',
      () => sig('other', payload),
      'the secret is wrong for this body (no common re-serialisation of this JSON matches either)',
    ],
    [
      'a malformed header',
      () => 'sha1=abc',
      'the header is malformed: expected sha256=<64 lowercase hex digits>',
    ],
    [
      'upper-case hex',
      () => sig(SECRET, payload).toUpperCase(),
      'the header is malformed: the prefix must be sha256= and the hex digits lowercase',
    ],
    [
      'the same JSON indented',
      () => sig(SECRET, JSON.stringify(JSON.parse(payload), null, 2)),
      'the body looks re-serialised: the signature matches JSON indented by 2 spaces, not these bytes — verify the raw body as received, before any parsing',
    ],
  ])('%s: exit 1 with one line saying why, never a throw', async (_, signature, why) => {
    const w = verbWorld([], { env: { CSSCTL_WEBHOOK_SECRET: SECRET } });
    expect(await w.run(verify, { signature: signature(), payloadFile: payloadFile() })).toBe(1);
    expect(w.stderr.text).toBe(`error: invalid signature: ${why}\n`);
    expect(w.stdout.text).toBe('');
    expectNoSecret(w, SECRET);
  });

  it('no secret: exit 2; no payload file and stdin a terminal: exit 2', async () => {
    const none = verbWorld([]);
    const err = await failureOf(none.ctx, verify, {
      signature: sig(SECRET, payload),
      payloadFile: payloadFile(),
    });
    expect(err?.exit).toBe(2);
    expect(err?.message).toBe('no webhook secret: set CSSCTL_WEBHOOK_SECRET or pass --secret-file <path>');
    const tty = verbWorld([], { stdin: terminal(), env: { CSSCTL_WEBHOOK_SECRET: SECRET } });
    expect(await tty.run(verify, { signature: sig(SECRET, payload) })).toBe(2);
    expect(tty.stderr.text).toBe(
      'error: no payload: pass --payload-file <path> or pipe the raw body on standard input\n',
    );
  });
});

describe('webhooks trigger', () => {
  function receiver(status: number, body = '') {
    const got: PlainRequest[] = [];
    const ctx: FakeContext = new FakeContext({
      env: { CSSCTL_WEBHOOK_SECRET: SECRET },
      service: async (req) => {
        got.push(req);
        ctx.clock.t += 12;
        return { status, headers: {}, body };
      },
    });
    return { ctx, got };
  }

  it('POSTs a signed sample delivery of the event to the URL; one line says the answer', async () => {
    const { ctx, got } = receiver(204);
    await runVerb(ctx, trigger, { url: 'http://127.0.0.1:9/hook' }, ['finding.critical']);
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject({ method: 'POST', url: 'http://127.0.0.1:9/hook' });
    const raw = got[0]!.body as string;
    expect(got[0]!.headers).toMatchObject({
      'content-type': 'application/json',
      'x-service-signature': sig(SECRET, raw),
    });
    // No token and no tenant go to a receiver.
    expect(got[0]!.headers).not.toHaveProperty('authorization');
    const delivery = JSON.parse(raw) as {
      event: string;
      timestamp: string;
      workspace: string;
      data: { severity: string };
    };
    expect(delivery).toMatchObject({
      event: 'finding.critical',
      timestamp: new Date(Date.UTC(2026, 10, 22, 12)).toISOString(),
      workspace: 'acme',
      data: { severity: 'critical' },
    });
    expect(ctx.stdout.text).toBe('finding.critical -> http://127.0.0.1:9/hook: HTTP 204 (12 ms)\n');
    expect(ctx.stderr.text).not.toContain(SECRET);
  });

  it('-o json: the event, URL, status, time and the delivery sent', async () => {
    const { ctx } = receiver(200);
    Object.assign(ctx.globals, { output: 'json' });
    await runVerb(ctx, trigger, { url: 'https://h.example/x?token=abc' }, ['scan.completed']);
    const out = JSON.parse(ctx.stdout.text) as Record<string, unknown>;
    // A secret in the URL's query is not shown.
    expect(out).toMatchObject({ event: 'scan.completed', status: 200, ok: true, duration_ms: 12 });
    expect(String(out.url)).not.toContain('abc');
    expect(out.delivery).toMatchObject({ event: 'scan.completed', workspace: 'acme' });
  });

  it('a receiver that echoes the secret in its answer: the error line never shows it', async () => {
    const { ctx } = receiver(500, `cannot verify with ${SECRET}`);
    const err = await failureOf(ctx, trigger, { url: 'http://127.0.0.1:9/' }, ['scan.failed']);
    expect(err?.exit).toBe(1);
    reportError(ctx.io, err, false);
    expect(ctx.stderr.text).toBe('error: the receiver answered HTTP 500: cannot verify with [REDACTED]\n');
  });

  it('a receiver that answers non-2xx: exit 1 with its status and what it said', async () => {
    const { ctx } = receiver(401, '{"error":"bad signature"}\n');
    const err = await failureOf(ctx, trigger, { url: 'http://127.0.0.1:9/' }, ['scan.failed']);
    expect(err?.exit).toBe(1);
    expect(err?.message).toBe('the receiver answered HTTP 401: {"error":"bad signature"}');
    expect(ctx.stdout.text).toBe('scan.failed -> http://127.0.0.1:9/: HTTP 401 (12 ms)\n');
  });

  it.each<[string, string, string, Record<string, string | undefined>, RegExp]>([
    ['an unknown event', 'scan.done', 'https://h.example/', {}, /unknown event "scan\.done"/],
    ['http:// elsewhere', 'scan.failed', 'http://10.1.2.3/', {}, /only for loopback hosts/],
    [
      'no secret',
      'scan.failed',
      'https://h.example/',
      { CSSCTL_WEBHOOK_SECRET: undefined },
      /no webhook secret/,
    ],
  ])('%s: exit 2, nothing sent', async (_, event, url, env, message) => {
    const w = verbWorld([], { env: { CSSCTL_WEBHOOK_SECRET: SECRET, ...env } });
    const err = await failureOf(w.ctx, trigger, { url }, [event]);
    expect(err?.exit).toBe(2);
    expect(err?.message).toMatch(message);
    expect(w.ctx.sent).toHaveLength(0);
  });
});

// ---- listen: a real receiver on loopback ----------------------------------------------------------------

/** POSTs `body` to `url` with node:http; resolves to the status and the answer's text. */
function post(
  url: string,
  body: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: string }> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: u.hostname, port: u.port, path: u.pathname, method: 'POST', headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Runs `webhooks listen` on port 0 until `stop()`; `url` once it listens. */
async function listening(ctx: FakeContext, opts: Partial<ListenOptions> = {}) {
  const done = failureOf(ctx, listen, { host: '127.0.0.1', port: '0', path: '/hooks', ...opts });
  let url: string | undefined;
  for (let i = 0; i < 500 && url === undefined; i++) {
    url = /Listening on (http:\/\/\S+?)[,\s]/.exec(ctx.stderr.text)?.[1];
    if (url === undefined) await new Promise((r) => setTimeout(r, 10));
  }
  if (url === undefined) throw new Error(`not listening: ${ctx.stderr.text}`);
  return {
    url,
    /** Stops it as Ctrl-C would; resolves to what it ended with (undefined: exit 0). */
    stop: async () => {
      ctx.abort();
      return done;
    },
  };
}

describe('webhooks listen', () => {
  const delivery = {
    event: 'scan.completed',
    timestamp: '2026-11-22T11:59:30Z',
    workspace: 'acme',
    data: {
      scan_id: 'scn_1',
      connection_alias: 'prod',
      status: 'completed',
      total_findings: 3,
      critical_count: 1,
    },
  };
  const raw = JSON.stringify(delivery);

  it('verifies a signed delivery, answers 2xx and prints one line for it; stops cleanly on the signal', async () => {
    const ctx = new FakeContext({ env: { CSSCTL_WEBHOOK_SECRET: SECRET } });
    const l = await listening(ctx);
    expect(l.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/hooks$/);
    const answer = await post(l.url, raw, {
      'content-type': 'application/json',
      'x-service-signature': sig(SECRET, raw),
    });
    expect(answer.status).toBeGreaterThanOrEqual(200);
    expect(answer.status).toBeLessThan(300);
    expect(await l.stop()).toBeUndefined();
    expect(ctx.stdout.text).toBe(`${deliveryLine(delivery)}\n`);
    expect(ctx.stdout.text).toBe(
      '2026-11-22T11:59:30Z  scan.completed            acme  scan scn_1 of prod: completed, 3 findings, 1 critical\n',
    );
    expect(ctx.stderr.text).toBe(`Listening on ${l.url} (Ctrl-C to stop)\nStopped.\n`);
    expect(ctx.stderr.text).not.toContain(SECRET);
  });

  it('a bad signature is answered 401 with a warning, and printed as nothing', async () => {
    const ctx = new FakeContext({ env: { CSSCTL_WEBHOOK_SECRET: SECRET } });
    const l = await listening(ctx);
    const answer = await post(l.url, raw, { 'x-service-signature': sig('wrong', raw) });
    expect(answer.status).toBe(401);
    const missing = await post(l.url, raw, {});
    expect(missing.status).toBe(401);
    const notJson = await post(l.url, 'hello', { 'x-service-signature': sig(SECRET, 'hello') });
    expect(notJson.status).toBe(400);
    expect(await l.stop()).toBeUndefined();
    expect(ctx.stdout.text).toBe('');
    const warnings = ctx.stderr.text.split('\n').filter((x) => x.startsWith('warning:'));
    expect(warnings).toHaveLength(3);
    expect(warnings[0]).toMatch(/^warning: rejected POST \/hooks from 127\.0\.0\.1: .*\(401\)$/);
    expect(warnings[2]).toBe('warning: rejected POST /hooks from 127.0.0.1: the body is not JSON (400)');
  });

  it('-o json: each verified delivery as one JSON line; the same body again is marked a duplicate', async () => {
    const ctx = new FakeContext({ env: { CSSCTL_WEBHOOK_SECRET: SECRET }, globals: { output: 'json' } });
    const l = await listening(ctx);
    const headers = { 'x-service-signature': sig(SECRET, raw) };
    expect((await post(l.url, raw, headers)).status).toBe(200);
    expect((await post(l.url, raw, headers)).status).toBe(200);
    expect(await l.stop()).toBeUndefined();
    expect(
      ctx.stdout.text
        .trimEnd()
        .split('\n')
        .map((x) => JSON.parse(x) as object),
    ).toStrictEqual([delivery, { ...delivery, duplicate: true }]);
  });

  it('--forward-to relays the exact bytes and signature, and answers with the target’s status', async () => {
    // Indented JSON: a relay that parsed and wrote the body again would change these bytes.
    const raw = JSON.stringify(delivery, null, 2);
    const relayed: PlainRequest[] = [];
    const ctx = new FakeContext({
      env: { CSSCTL_WEBHOOK_SECRET: SECRET },
      service: async (req) => {
        relayed.push(req);
        return { status: 202, headers: { 'content-type': 'text/plain' }, body: 'queued' };
      },
    });
    const l = await listening(ctx, { forwardTo: 'http://127.0.0.1:9/app' });
    const answer = await post(l.url, raw, {
      'content-type': 'application/json',
      'x-service-signature': sig(SECRET, raw),
    });
    expect(answer).toStrictEqual({ status: 202, body: 'queued' });
    expect(await l.stop()).toBeUndefined();
    expect(relayed).toHaveLength(1);
    expect(relayed[0]).toMatchObject({ method: 'POST', url: 'http://127.0.0.1:9/app' });
    expect(Buffer.from(relayed[0]!.body as Uint8Array).toString()).toBe(raw);
    expect(relayed[0]!.headers?.['x-service-signature']).toBe(sig(SECRET, raw));
    expect(ctx.stdout.text).toBe(`${deliveryLine(delivery, { status: 202 })}\n`);
    expect(ctx.stderr.text).toContain(', forwarding to http://127.0.0.1:9/app (Ctrl-C to stop)');
  });

  it('--save writes each verified delivery to its own file, mode 0600, byte-exact', async () => {
    const ctx = new FakeContext({ env: { CSSCTL_WEBHOOK_SECRET: SECRET } });
    const save = join(dir, 'saved');
    const l = await listening(ctx, { save });
    expect((await post(l.url, raw, { 'x-service-signature': sig(SECRET, raw) })).status).toBe(200);
    expect(await l.stop()).toBeUndefined();
    const names = readdirSync(save);
    expect(names).toHaveLength(1);
    expect(names[0]).toMatch(/^\d{8}T\d{6}(\.\d+)?Z-scan\.completed-[0-9a-f]{8}\.json$/);
    expect(statSync(join(save, names[0]!)).mode & 0o777).toBe(0o600);
    expect((JSON.parse(readFileSync(join(save, names[0]!), 'utf8')) as { body: string }).body).toBe(raw);
  });

  it('--print-secret prints the secret and listens to nothing', async () => {
    const ctx = new FakeContext({ env: { CSSCTL_WEBHOOK_SECRET: SECRET } });
    expect(
      await failureOf(ctx, listen, { host: '127.0.0.1', port: '0', path: '/', printSecret: true }),
    ).toBeUndefined();
    expect(ctx.stdout.text).toBe(`${SECRET}\n`);
    expect(ctx.stderr.text).toBe('');
  });

  it.each<[string, Partial<ListenOptions>, string | undefined, RegExp]>([
    ['a port out of range', { port: '70000' }, undefined, /^invalid --port "70000"/],
    ['a path without /', { path: 'hooks' }, undefined, /^invalid --path "hooks"/],
    [
      '--forward-to plain http elsewhere',
      { forwardTo: 'http://10.0.0.1/' },
      undefined,
      /only for loopback hosts/,
    ],
    [
      '--forward-duplicates alone',
      { forwardDuplicates: true },
      undefined,
      /^--forward-duplicates needs --forward-to$/,
    ],
    [
      '--forward-to itself',
      { port: '8088', path: '/', forwardTo: 'http://localhost:8088/' },
      undefined,
      /is this receiver itself/,
    ],
    ['a bad --tolerance', { tolerance: '5 minutes' }, undefined, /^invalid --tolerance "5 minutes"/],
    ['-o csv', {}, 'csv', /^listen prints a line per event, or JSON with -o json or ndjson; not csv$/],
  ])('%s: exit 2, nothing listens', async (_, o, output, message) => {
    const ctx = new FakeContext({ env: { CSSCTL_WEBHOOK_SECRET: SECRET }, globals: { output } });
    const err = await failureOf(ctx, listen, { host: '127.0.0.1', port: '0', path: '/', ...o });
    expect(err?.exit).toBe(2);
    expect(err?.message).toMatch(message);
    expect(ctx.stderr.text).not.toContain('Listening');
  });

  it('no secret: exit 2 before listening', async () => {
    const ctx = new FakeContext();
    const err = await failureOf(ctx, listen, { host: '127.0.0.1', port: '0', path: '/' });
    expect(err?.exit).toBe(2);
    expect(ctx.stderr.text).toBe('');
  });
});

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
  output?: string,
) {
  const sent: PlainRequest[] = [];
  const ctx: FakeContext = new FakeContext({
    env,
    globals: { output },
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

describe('webhooks replay', () => {
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

  it('says how many were replayed; -o json: one outcome per delivery', async () => {
    const a = saved('a.json', '2026-11-25T08:00:01.000Z', '{"n":1}');
    const { ctx, stderr } = fake(() => ({ status: 200 }));
    await replay(ctx, { to: 'http://127.0.0.1:9/' }, [a]);
    expect(stderr.text).toBe('Replayed 1 delivery to http://127.0.0.1:9/.\n');
    const j = fake(() => ({ status: 202 }), {}, 'json');
    await replay(j.ctx, { to: 'http://127.0.0.1:9/' }, [a]);
    expect(JSON.parse(j.stdout.text)).toStrictEqual([
      {
        file: a,
        event: 'scan.completed',
        received_at: '2026-11-25T08:00:01.000Z',
        status: 202,
        ok: true,
        duration_ms: 7,
      },
    ]);
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
