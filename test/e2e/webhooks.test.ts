// The webhook commands, end to end: the built binary against the sandbox and receivers on loopback.
// Receivers here check signatures with node:crypto directly, never with cssctl's signing module.
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { World, errorLine, lines, received } from './harness.js';
import {
  hmac,
  killListeners,
  post,
  startListen as start,
  testReceiver,
  until,
  startScan,
} from './webhook-helpers.js';

const SECRET = 'e2e-webhook-secret-7f3a';
const EVENTS = [
  'scan.completed',
  'scan.failed',
  'finding.critical',
  'finding.high',
  'compliance.score_dropped',
];

let w: World;
let token: string;
/** The environment of a user of acme, by token (no keychain needed). */
let env: Record<string, string>;

beforeAll(async () => {
  w = await World.start({ rateLimit: 100_000, scanRateLimit: 100_000, scanStepMs: 40, webhookRetryMs: 20 });
  token = await w.sandbox.issueAccessToken(w.cred('acme').email, 3600);
  env = { CSSCTL_TOKEN: token, CSSCTL_BASE_URL: w.url, CSSCTL_WORKSPACE: 'acme' };
});
afterAll(() => w.close());
afterEach(killListeners);

function startListen(args: string[]) {
  return start({ ...w.env, CSSCTL_WEBHOOK_SECRET: SECRET }, args);
}

// ---- create, list, delete ---------------------------------------------------------------------

describe('webhooks create, list, delete', () => {
  afterEach(() => w.sandbox.reset());

  it('generates a 32-byte hex secret when none is given, prints it once, and never lists it', async () => {
    const created = await w.run(
      ['webhooks', 'create', '--url', 'https://hooks.example.com/cssctl', '--events', 'all', '--json'],
      { env },
    );
    expect(created.code, created.stderr).toBe(0);
    const hook = JSON.parse(created.stdout);
    expect(hook).toMatchObject({ url: 'https://hooks.example.com/cssctl', events: EVENTS });
    expect(hook.id).toMatch(/^whk_/);
    expect(hook.secret).toMatch(/^[0-9a-f]{64}$/);
    expect(created.stderr).toMatch(/shown only now/);
    expect(created.stderr).not.toContain(hook.secret);
    // The secret went to the service in the body, not in a URL.
    const sent = received(w.sandbox, '/webhooks', 'POST');
    expect(JSON.parse(sent[0]!.body).secret).toBe(hook.secret);
    expect(sent[0]!.path).toBe('/api/v1/webhooks');

    const listed = await w.run(['webhooks', 'list'], { env });
    expect(listed.code).toBe(0);
    expect(lines(listed.stdout)[0]).toMatch(/^ID\s+URL\s+EVENTS/);
    expect(listed.stdout).toContain(hook.id);
    expect(listed.stdout).toContain('scan.completed,scan.failed');
    const json = await w.run(['webhooks', 'list', '-o', 'json'], { env });
    expect(JSON.parse(json.stdout)).toEqual([expect.objectContaining({ id: hook.id })]);
    for (const r of [listed, json]) expect(r.stdout + r.stderr).not.toContain(hook.secret);

    const del = await w.run(['webhooks', 'delete', hook.id], { env });
    expect(del.code).toBe(0);
    expect(del.stderr).toContain(`Deleted webhook ${hook.id}`);
    expect(JSON.parse((await w.run(['webhooks', 'list', '--json'], { env })).stdout)).toEqual([]);
    const again = await w.run(['webhooks', 'delete', hook.id], { env });
    expect(again.code).toBe(5);
    errorLine(again);
  });

  it('uses CSSCTL_WEBHOOK_SECRET or --secret-stdin without printing it; http only for loopback, with a warning', async () => {
    const fromEnv = await w.run(
      ['webhooks', 'create', '--url', 'http://127.0.0.1:9/x', '--events', 'scan.failed,FINDING.HIGH'],
      { env: { ...env, CSSCTL_WEBHOOK_SECRET: SECRET } },
    );
    expect(fromEnv.code, fromEnv.stderr).toBe(0);
    expect(fromEnv.stderr).toMatch(/warning: .*plain http/);
    expect(fromEnv.stdout).toMatch(/^EVENTS\s+scan\.failed,finding\.high$/m);
    expect(fromEnv.stdout + fromEnv.stderr).not.toContain(SECRET);
    expect(fromEnv.stdout).not.toMatch(/SECRET/);

    const piped = await w.run(
      [
        'webhooks',
        'create',
        '--url',
        'https://h.example.com/',
        '--events',
        'scan.completed',
        '--secret-stdin',
        '--verbose',
      ],
      { env, input: 'from-stdin-secret\n' },
    );
    expect(piped.code, piped.stderr).toBe(0);
    expect(piped.stdout + piped.stderr).not.toContain('from-stdin-secret');
    expect(piped.stderr).toMatch(/\* POST http:\/\/127\.0\.0\.1:\d+\/api\/v1\/webhooks -> 201/);
    const bodies = received(w.sandbox, '/webhooks', 'POST').map((r) => JSON.parse(r.body).secret);
    expect(bodies).toEqual([SECRET, 'from-stdin-secret']);
  });

  it.each([
    [
      ['--url', 'https://h.example.com/', '--events', 'scan.exploded'],
      /unknown event "scan.exploded": expected scan\.completed, .*compliance\.score_dropped or all/,
    ],
    [
      ['--url', 'http://hooks.example.com/', '--events', 'all'],
      /plain http:\/\/ is allowed only for loopback hosts/,
    ],
    [['--url', 'not a url', '--events', 'all'], /is not a URL/],
    [['--url', 'https://h.example.com/'], /required option '--events/],
  ])('refuses %j with exit 2 and sends nothing', async (args, message) => {
    w.sandbox.clearRequests();
    const res = await w.run(['webhooks', 'create', ...args], { env });
    expect(res.code).toBe(2);
    expect(errorLine(res)).toMatch(message);
    expect(w.sandbox.requests).toEqual([]);
  });
});

// ---- verify -------------------------------------------------------------------------------------

describe('webhooks verify', () => {
  const GH_SECRET = "It's a Secret to Everybody";
  const GH_SIG = 'sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17';

  it("exits 0 for GitHub's documented vector, from stdin or a file, with the secret from env or a file", async () => {
    const file = join(w.dir, 'payload.txt');
    const secretFile = join(w.dir, 'secret.txt');
    writeFileSync(file, 'Hello, World!');
    writeFileSync(secretFile, `${GH_SECRET}\n`);
    const viaStdin = await w.run(['webhooks', 'verify', '--signature', GH_SIG], {
      env: { CSSCTL_WEBHOOK_SECRET: GH_SECRET },
      input: 'Hello, World!',
    });
    expect(viaStdin.code, viaStdin.stderr).toBe(0);
    const viaFiles = await w.run(
      [
        'webhooks',
        'verify',
        '--signature',
        GH_SIG,
        '--payload-file',
        file,
        '--secret-file',
        secretFile,
        '--json',
      ],
      {},
    );
    expect(viaFiles.code, viaFiles.stderr).toBe(0);
    expect(JSON.parse(viaFiles.stdout)).toEqual({ valid: true });
  });

  it.each([
    ['Hello, World!\n', GH_SIG, /re-serialised: it ends with a line ending the signed bytes do not have/],
    [
      'Hello, World?',
      GH_SIG,
      /^error: invalid signature: the secret is wrong for this body, or these are not/,
    ],
    ['Hello, World!', GH_SIG.toUpperCase(), /the header is malformed: .*lowercase/],
    ['Hello, World!', 'sha256=', /the header is malformed: expected sha256=<64 lowercase hex digits>/],
    ['Hello, World!', '\u001b[31m;$(rm -rf)', /the header is malformed/],
  ])('exits 1 for payload %j with signature %j, in one line', async (payload, sig, why) => {
    const res = await w.run(['webhooks', 'verify', '--signature', sig], {
      env: { CSSCTL_WEBHOOK_SECRET: GH_SECRET },
      input: payload,
    });
    expect(res.code).toBe(1);
    expect(errorLine(res)).toMatch(why);
    expect(res.stderr).not.toContain(GH_SECRET);
  });

  it('needs a secret: exit 2', async () => {
    const res = await w.run(['webhooks', 'verify', '--signature', GH_SIG], { input: 'Hello, World!' });
    expect(res.code).toBe(2);
    expect(errorLine(res)).toMatch(/no webhook secret: set CSSCTL_WEBHOOK_SECRET or pass --secret-file/);
  });
});

// ---- listen -------------------------------------------------------------------------------------

describe('webhooks listen', () => {
  afterEach(() => w.sandbox.reset());

  async function register(url: string, events = 'scan.completed') {
    const res = await w.run(['webhooks', 'create', '--url', url, '--events', events], {
      env: { ...env, CSSCTL_WEBHOOK_SECRET: SECRET },
    });
    expect(res.code, res.stderr).toBe(0);
  }

  it('receives, verifies and prints the real scan.completed delivery; a forged one gets 401 and is not printed', async () => {
    const l = await startListen(['--path', '/hooks']);
    expect(l.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/hooks$/);
    await register(l.url);
    const scanId = await startScan(w.url, token, 'prod');
    await until(() => l.stdout().includes(scanId), 'the scan.completed line');
    const line = lines(l.stdout())[0]!;
    expect(line).toMatch(
      new RegExp(
        `^\\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z  scan\\.completed {12}acme  scan ${scanId} of prod \\(aws\\): completed, \\d+ findings, \\d+ critical, risk [\\d.]+$`,
      ),
    );
    await until(() => w.sandbox.deliveries.some((d) => d.outcome === 'delivered'), 'the delivery outcome');
    expect(w.sandbox.deliveries[0]).toMatchObject({ event: 'scan.completed', status: 200, attempts: 1 });

    // Forged: a real body with a signature made with another secret, and one without any.
    const real = w.sandbox.deliveries[0]!.body;
    const forged = await post(l.url, real.replace('"completed"', '"failed"'), {
      'x-service-signature': hmac('not-the-secret', real),
    });
    expect(forged.status).toBe(401);
    expect((await post(l.url, real)).status).toBe(401);
    expect((await post(l.url, real, { 'x-service-signature': hmac(SECRET, `${real} `) })).status).toBe(401);
    // Another path, another method, not JSON.
    expect(
      (await post(l.url.replace('/hooks', '/other'), real, { 'x-service-signature': hmac(SECRET, real) }))
        .status,
    ).toBe(404);
    expect((await fetch(l.url)).status).toBe(405);
    expect((await post(l.url, 'not json', { 'x-service-signature': hmac(SECRET, 'not json') })).status).toBe(
      400,
    );
    await new Promise((r) => setTimeout(r, 100));
    expect(lines(l.stdout())).toHaveLength(1);
    expect(l.stderr()).toMatch(/rejected POST \/hooks from 127\.0\.0\.1: .* \(401\)/);
    expect(l.stderr()).not.toContain(SECRET);

    const sentAt = Date.now();
    l.child.kill('SIGTERM');
    const { code, at } = await l.exited;
    expect(code).toBe(0);
    expect(at - sentAt).toBeLessThan(1000);
    expect(l.stderr()).toMatch(/Stopped\.\n$/);
  });

  it('with -o ndjson prints each verified delivery whole, one per line', async () => {
    const l = await startListen(['-o', 'ndjson']);
    await register(l.url, 'scan.completed,scan.failed');
    await startScan(w.url, token, 'legacy-fail');
    await until(() => lines(l.stdout()).length >= 2, 'two deliveries');
    const printed = lines(l.stdout()).map((x) => JSON.parse(x));
    const sent = w.sandbox.deliveries.map((d) => JSON.parse(d.body));
    expect(printed.map((p) => p.event).sort()).toEqual(['scan.completed', 'scan.failed']);
    for (const p of printed) expect(sent).toContainEqual(p);
    l.child.kill('SIGINT');
    expect((await l.exited).code).toBe(0);
  });

  it('--forward-to relays byte-identical bodies and the signature, and answers with the target status', async () => {
    const target = await testReceiver({ secret: SECRET, status: 202 });
    try {
      const l = await startListen(['--forward-to', target.url]);
      expect(l.stderr()).toContain(`forwarding to ${target.url}`);
      await register(l.url);
      const scanId = await startScan(w.url, token, 'staging');
      await until(() => target.hits.length === 1, 'the forwarded delivery');
      const sent = w.sandbox.deliveries[0]!;
      expect(target.hits[0]!.raw.equals(Buffer.from(sent.body))).toBe(true);
      expect(target.hits[0]!.headers['x-service-signature']).toBe(sent.signature);
      expect(target.hits[0]!.valid).toBe(true);
      await until(() => w.sandbox.deliveries[0]!.outcome === 'delivered', 'the outcome');
      expect(w.sandbox.deliveries[0]!.status).toBe(202);
      await until(() => l.stdout().includes(scanId), 'the event line');
      expect(lines(l.stdout())[0]).toMatch(/ -> 202$/);

      // Bytes a JSON re-encoding would change: spacing, escapes, key order, a non-ASCII character.
      const odd = Buffer.from(
        '{ "event":"scan.completed" ,\n "data":{"b":1,"a":"\\u00e9 é"},"workspace":"acme"}\n',
      );
      const res = await post(l.url, odd, { 'x-service-signature': hmac(SECRET, odd) });
      expect(res.status).toBe(202);
      expect(target.hits[1]!.raw.equals(odd)).toBe(true);
      expect(target.hits[1]!.valid).toBe(true);
      // A delivery that fails verification never reaches the target.
      expect((await post(l.url, odd, { 'x-service-signature': hmac('wrong', odd) })).status).toBe(401);
      expect(target.hits).toHaveLength(2);
    } finally {
      await target.close();
    }
  });

  it('answers 502 when the forward target cannot be reached', async () => {
    const target = await testReceiver({ secret: SECRET });
    const gone = target.url;
    await target.close();
    const l = await startListen(['--forward-to', gone]);
    const body = JSON.stringify({ event: 'scan.completed', timestamp: 't', workspace: 'acme', data: {} });
    const res = await post(l.url, body, { 'x-service-signature': hmac(SECRET, body) });
    expect(res.status).toBe(502);
    await until(() => l.stdout().includes('-> 502'), 'the 502 line');
  });

  it('on SIGTERM finishes the delivery in flight, then exits 0', async () => {
    const target = await testReceiver({ secret: SECRET, delayMs: 400 });
    try {
      const l = await startListen(['--forward-to', target.url]);
      const body = JSON.stringify({ event: 'scan.completed', timestamp: 't', workspace: 'acme', data: {} });
      const pending = post(l.url, body, { 'x-service-signature': hmac(SECRET, body) });
      await until(() => target.hits.length === 1, 'the forward to start');
      l.child.kill('SIGTERM');
      expect((await pending).status).toBe(204);
      const { code } = await l.exited;
      expect(code).toBe(0);
      expect(lines(l.stdout())).toHaveLength(1);
    } finally {
      await target.close();
    }
  });

  it('Ctrl-C with a forward target that never answers: says what it waits for; a second Ctrl-C is exit 130 at once', async () => {
    const target = await testReceiver({ secret: SECRET, delayMs: 120_000 });
    try {
      for (const signal of ['SIGINT', 'SIGTERM'] as const) {
        const l = await startListen(['--forward-to', target.url]);
        const body = JSON.stringify({
          event: 'scan.completed',
          timestamp: 't',
          workspace: 'acme',
          data: { signal },
        });
        void post(l.url, body, { 'x-service-signature': hmac(SECRET, body) }).catch(() => undefined);
        await until(() => target.hits.some((h) => h.raw.toString() === body), 'the forward to start');
        l.child.kill(signal);
        await until(() => l.stderr().includes('Stopping:'), 'the line saying what it waits for', 2_000);
        expect(l.stderr()).toContain(
          `Stopping: waiting for 1 delivery forwarded to ${target.url} to be answered (up to 31 s); press Ctrl-C again to stop now`,
        );
        // Still waiting (not a silent exit), until the second signal.
        await new Promise((r) => setTimeout(r, 300));
        expect(l.child.exitCode).toBeNull();
        const sentAt = Date.now();
        l.child.kill(signal);
        const { code, at } = await l.exited;
        expect(code).toBe(130);
        expect(at - sentAt).toBeLessThan(1_500);
      }
      // Nothing in flight: the first signal stops at once, without the line.
      const idle = await startListen(['--forward-to', target.url]);
      idle.child.kill('SIGINT');
      expect((await idle.exited).code).toBe(0);
      expect(idle.stderr()).not.toContain('Stopping:');
    } finally {
      await target.close();
    }
  });

  it('--print-secret prints the secret in use and exits', async () => {
    const res = await w.run(['webhooks', 'listen', '--print-secret'], {
      env: { CSSCTL_WEBHOOK_SECRET: SECRET },
    });
    expect(res.code).toBe(0);
    expect(res.stdout).toBe(`${SECRET}\n`);
  });

  it('bad input: one line, the contract exit code, nothing left listening', async () => {
    const busy = createServer();
    await new Promise<void>((r) => busy.listen(0, '127.0.0.1', r));
    const port = String((busy.address() as AddressInfo).port);
    try {
      const inUse = await w.run(['webhooks', 'listen', '--port', port], {
        env: { CSSCTL_WEBHOOK_SECRET: SECRET },
      });
      expect(inUse.code).toBe(1);
      expect(errorLine(inUse)).toMatch(
        new RegExp(`cannot listen on 127\\.0\\.0\\.1:${port}: the port is already in use`),
      );
    } finally {
      busy.close();
    }
    const cases: [string[], Record<string, string>, RegExp][] = [
      [
        ['--forward-to', 'localhost:3000/hook'],
        { CSSCTL_WEBHOOK_SECRET: SECRET },
        /--forward-to .*https:\/\//,
      ],
      [
        ['--forward-to', 'not a url'],
        { CSSCTL_WEBHOOK_SECRET: SECRET },
        /--forward-to "not a url" is not a URL/,
      ],
      [['--forward-to', 'http://10.1.2.3/hook'], { CSSCTL_WEBHOOK_SECRET: SECRET }, /only for loopback/],
      [[], {}, /no webhook secret/],
      [['--port', '70000'], { CSSCTL_WEBHOOK_SECRET: SECRET }, /invalid --port/],
      [['--path', 'hooks'], { CSSCTL_WEBHOOK_SECRET: SECRET }, /invalid --path/],
      [['-o', 'csv'], { CSSCTL_WEBHOOK_SECRET: SECRET }, /not csv/],
    ];
    for (const [args, extra, message] of cases) {
      const res = await w.run(['webhooks', 'listen', '--port', '0', ...args], {
        env: extra,
        timeoutMs: 5000,
      });
      expect(res.code, `${args.join(' ')}: ${res.stderr}`).toBe(2);
      expect(errorLine(res)).toMatch(message);
      expect(res.stderr).not.toMatch(/Listening on/);
    }
  });
});

// ---- trigger ------------------------------------------------------------------------------------

describe('webhooks trigger', () => {
  it.each(EVENTS)('sends a correctly signed %s sample of the documented shape', async (event) => {
    const rx = await testReceiver({ secret: SECRET });
    try {
      const res = await w.run(['webhooks', 'trigger', event, '--url', rx.url, '-w', 'acme'], {
        env: { CSSCTL_WEBHOOK_SECRET: SECRET },
      });
      expect(res.code, res.stderr).toBe(0);
      expect(res.stdout).toMatch(
        new RegExp(`^${event.replace('.', '\\.')} -> ${rx.url}: HTTP 204 \\(\\d+ ms\\)\\n$`),
      );
      expect(rx.hits).toHaveLength(1);
      const hit = rx.hits[0]!;
      expect(hit.valid).toBe(true);
      expect(hit.headers['content-type']).toBe('application/json');
      expect(hit.headers.authorization).toBeUndefined();
      expect(hit.headers['x-tenant-slug']).toBeUndefined();
      const payload = JSON.parse(hit.raw.toString());
      expect(Object.keys(payload).sort()).toEqual(['data', 'event', 'timestamp', 'workspace']);
      expect(payload.event).toBe(event);
      expect(payload.workspace).toBe('acme');
      expect(new Date(payload.timestamp).toISOString()).toBe(payload.timestamp);
      expect(typeof payload.data).toBe('object');
      if (event.startsWith('scan.')) {
        expect(Object.keys(payload.data)).toEqual(
          expect.arrayContaining([
            'scan_id',
            'connection_alias',
            'provider',
            'status',
            'total_findings',
            'critical_count',
            'risk_score',
          ]),
        );
      }
    } finally {
      await rx.close();
    }
  });

  it('reports a non-2xx answer as a failing exit, and logs no secret or signature with --verbose', async () => {
    const rx = await testReceiver({ secret: 'the-receiver-expects-another' });
    try {
      const res = await w.run(
        ['webhooks', 'trigger', 'scan.completed', '--url', rx.url, '--verbose', '--json'],
        {
          env: { CSSCTL_WEBHOOK_SECRET: SECRET },
        },
      );
      expect(res.code).toBe(1);
      expect(JSON.parse(res.stdout)).toMatchObject({ event: 'scan.completed', status: 401, ok: false });
      expect(res.stderr).toMatch(/\* POST http:\/\/127\.0\.0\.1:\d+\/receive -> 401/);
      expect(res.stderr).toMatch(/the receiver answered HTTP 401: bad signature/);
      const signature = String(rx.hits[0]!.headers['x-service-signature']);
      expect(res.stderr).not.toContain(SECRET);
      expect(res.stderr).not.toContain(signature.slice(7));
    } finally {
      await rx.close();
    }
  });

  it.each([
    [['scan.exploded', '--url', 'http://127.0.0.1:9/'], { CSSCTL_WEBHOOK_SECRET: SECRET }, /unknown event/],
    [
      ['scan.completed', '--url', 'http://example.com/'],
      { CSSCTL_WEBHOOK_SECRET: SECRET },
      /only for loopback/,
    ],
    [['scan.completed', '--url', 'http://127.0.0.1:9/'], {}, /no webhook secret/],
  ])('refuses %j with exit 2', async (args, extra, message) => {
    const res = await w.run(['webhooks', 'trigger', ...args], { env: extra });
    expect(res.code).toBe(2);
    expect(errorLine(res)).toMatch(message);
  });

  it('a receiver that cannot be reached is exit 1 with one line', async () => {
    const rx = await testReceiver({ secret: SECRET });
    await rx.close();
    const res = await w.run(['webhooks', 'trigger', 'finding.high', '--url', rx.url], {
      env: { CSSCTL_WEBHOOK_SECRET: SECRET },
    });
    expect(res.code).toBe(1);
    expect(errorLine(res)).toMatch(/connection refused \(is the receiver running there\?\)/);
  });
});
