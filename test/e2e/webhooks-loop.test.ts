// The developer's loop (cli-contract.md §11), end to end: listen --events/--save/--tolerance, duplicates,
// replay, and verify's explanations — the built binary, the sandbox's real deliveries, and receivers written
// for the test that check signatures with node:crypto only.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { World, errorLine, lines } from './harness.js';
import { hmac, killListeners, post, startListen, testReceiver, until, startScan } from './webhook-helpers.js';

const SECRET = 'e2e-loop-secret-51c9';
const NAME = /^\d{8}T\d{6}\.\d{3}Z-[a-z._]+-[0-9a-f]{8}\.json$/;

let w: World;
let token: string;
let env: Record<string, string>;

beforeAll(async () => {
  // Retries 200 ms, 400 ms, 800 ms… apart: time enough to free a full disk between two tries.
  w = await World.start({ rateLimit: 100_000, scanRateLimit: 100_000, scanStepMs: 40, webhookRetryMs: 200 });
  token = await w.sandbox.issueAccessToken(w.cred('acme').email, 3600);
  env = { CSSCTL_TOKEN: token, CSSCTL_BASE_URL: w.url, CSSCTL_WORKSPACE: 'acme' };
});
afterAll(() => w.close());
afterEach(async () => {
  await killListeners();
  w.sandbox.reset();
});

const listen = (args: string[], shell?: string) =>
  startListen({ ...w.env, CSSCTL_WEBHOOK_SECRET: SECRET }, args, { shell });

async function register(url: string, events: string) {
  const res = await w.run(['webhooks', 'create', '--url', url, '--events', events], {
    env: { ...env, CSSCTL_WEBHOOK_SECRET: SECRET },
  });
  expect(res.code, res.stderr).toBe(0);
}

/** A delivery body as the service would write it, `timestamp` now unless given. */
function delivery(event: string, extra: Record<string, unknown> = {}, timestamp = new Date()): string {
  return JSON.stringify({ event, timestamp: timestamp.toISOString(), workspace: 'acme', data: { ...extra } });
}

function signedPost(url: string, body: string | Buffer) {
  return post(url, body, { 'x-service-signature': hmac(SECRET, body) });
}

interface SavedFile {
  name: string;
  mode: number;
  json: {
    received_at: string;
    event?: string;
    headers: Record<string, string>;
    body_encoding: string;
    body: string;
  };
  raw: Buffer;
}

/** The files of a --save folder, in name order, with each raw body decoded independently of cssctl. */
function savedIn(dir: string): SavedFile[] {
  return readdirSync(dir)
    .sort()
    .map((name) => {
      const path = join(dir, name);
      const json = JSON.parse(readFileSync(path, 'utf8'));
      const raw = Buffer.from(json.body, json.body_encoding === 'base64' ? 'base64' : 'utf8');
      return { name, mode: statSync(path).mode & 0o777, json, raw };
    });
}

function sha8(raw: Buffer): string {
  return createHash('sha256').update(raw).digest('hex').slice(0, 8);
}

describe('listen --save, then replay', () => {
  it('captures the real deliveries of a scan and a non-UTF-8 body, and replays them byte for byte, oldest first', async () => {
    const dir = join(w.dir, 'capture');
    const l = await listen(['--save', dir]);
    expect(l.stderr()).toContain(`saving to ${dir}`);
    await register(l.url, 'all');
    await startScan(w.url, token, 'prod');
    await until(
      () => w.sandbox.deliveries.length > 1 && w.sandbox.deliveries.every((d) => d.outcome === 'delivered'),
      'the scan’s deliveries',
    );
    // Latin-1 é inside a JSON string: not UTF-8, yet signed, verified and kept as the bytes it was.
    const odd = Buffer.concat([
      Buffer.from(
        '{"event":"finding.high","timestamp":"2026-11-25T08:00:00Z","workspace":"acme","data":{"t":"caf',
      ),
      Buffer.from([0xe9]),
      Buffer.from('"}}'),
    ]);
    expect((await signedPost(l.url, odd)).status).toBe(200);
    // Forged (another secret) and unsigned: refused, and never saved.
    expect((await post(l.url, odd, { 'x-service-signature': hmac('forged', odd) })).status).toBe(401);
    expect((await post(l.url, delivery('scan.completed'))).status).toBe(401);
    l.child.kill('SIGINT');
    expect((await l.exited).code).toBe(0);

    const sent = w.sandbox.deliveries;
    const files = savedIn(dir);
    expect(files).toHaveLength(sent.length + 1);
    for (const f of files) {
      expect(f.name).toMatch(NAME);
      expect(f.mode).toBe(0o600);
      expect(f.name).toContain(`-${f.json.event}-${sha8(f.raw)}.json`);
      expect(f.name.startsWith(f.json.received_at.replace(/[-:]/g, ''))).toBe(true);
    }
    const oddFile = files.find((f) => f.raw.equals(odd))!;
    expect(oddFile.json.body_encoding).toBe('base64');
    for (const d of sent) {
      const f = files.find((x) => x.raw.equals(Buffer.from(d.body)))!;
      expect(f.json.body_encoding).toBe('utf8');
      expect(f.json.body).toBe(d.body);
      expect(f.json.headers['x-service-signature']).toBe(d.signature);
    }

    const rx = await testReceiver({ secret: SECRET });
    try {
      // Named one by one, newest first: replay still sends them oldest first.
      const named = files.map((f) => join(dir, f.name)).reverse();
      const res = await w.run(['webhooks', 'replay', ...named, '--to', rx.url], {});
      expect(res.code, res.stderr).toBe(0);
      const out = lines(res.stdout);
      expect(out).toHaveLength(files.length);
      const oldestFirst = [...files].sort(
        (a, b) => Date.parse(a.json.received_at) - Date.parse(b.json.received_at),
      );
      out.forEach((line, i) => {
        const f = oldestFirst[i]!;
        expect(line).toMatch(
          new RegExp(`^${f.json.received_at}  ${f.json.event}  ${f.name} -> HTTP 204 \\(\\d+ ms\\)$`),
        );
      });
      expect(rx.hits.map((h) => h.raw.toString('base64'))).toEqual(
        oldestFirst.map((f) => f.raw.toString('base64')),
      );
      expect(rx.hits.every((h) => h.valid)).toBe(true);
      expect(rx.hits.map((h) => h.headers['x-service-signature'])).toEqual(
        oldestFirst.map((f) => f.json.headers['x-service-signature']),
      );
      expect(res.stderr).toMatch(new RegExp(`Replayed ${files.length} deliveries to ${rx.url}\\.`));
    } finally {
      await rx.close();
    }

    // --resign: the same bytes under the current secret; without it the saved signature fails there.
    const rotated = await testReceiver({ secret: 'rotated-secret' });
    try {
      const one = join(dir, oddFile.name);
      const stale = await w.run(['webhooks', 'replay', one, '--to', rotated.url, '-o', 'ndjson'], {});
      expect(stale.code).toBe(1);
      expect(JSON.parse(stale.stdout)).toMatchObject({ file: one, status: 401, ok: false });
      // With -o ndjson the error too is JSON, on stderr.
      expect(JSON.parse(stale.stderr).error).toMatchObject({
        detail: `1 of 1 delivery was not answered 2xx by ${rotated.url}`,
        exit_code: 1,
      });
      const text = await w.run(['webhooks', 'replay', one, '--to', rotated.url], {});
      expect(errorLine(text)).toBe(`error: 1 of 1 delivery was not answered 2xx by ${rotated.url}`);
      expect(text.stdout).toMatch(/ -> HTTP 401 \(\d+ ms\)\n$/);
      const fresh = await w.run(['webhooks', 'replay', one, '--to', rotated.url, '--resign'], {
        env: { CSSCTL_WEBHOOK_SECRET: 'rotated-secret' },
      });
      expect(fresh.code, fresh.stderr).toBe(0);
      expect(rotated.hits).toHaveLength(3);
      expect(rotated.hits[2]!.raw.equals(odd)).toBe(true);
      expect(rotated.hits[2]!.valid).toBe(true);
      expect(fresh.stdout + fresh.stderr).not.toContain('rotated-secret');
    } finally {
      await rotated.close();
    }
  });

  it('replay checks every file before it sends anything: one that is not a saved delivery is exit 2 naming it', async () => {
    const dir = join(w.dir, 'mixed');
    mkdirSync(dir, { recursive: true });
    const l = await listen(['--save', dir]);
    expect((await signedPost(l.url, delivery('scan.completed'))).status).toBe(200);
    await until(() => readdirSync(dir).length === 1, 'the saved file');
    const bogus = join(dir, 'zz-notes.json');
    writeFileSync(bogus, '{"todo":"replay these"}');
    const rx = await testReceiver({ secret: SECRET });
    try {
      const res = await w.run(['webhooks', 'replay', dir, '--to', rx.url], {});
      expect(res.code).toBe(2);
      expect(res.stderr).toContain(`error: ${bogus} is not a saved delivery: no "format"`);
      expect(rx.hits).toEqual([]);
      for (const args of [
        [bogus.replace('zz-notes', 'missing'), '--to', rx.url],
        [dir, '--to', 'http://example.com/hook'],
        [dir, '--to', rx.url, '--secret-file', bogus],
      ]) {
        const bad = await w.run(['webhooks', 'replay', ...args], {});
        expect(bad.code, bad.stderr).toBe(2);
      }
      rmSync(bogus);
      const json = await w.run(['webhooks', 'replay', dir, '--to', rx.url, '-o', 'json'], {});
      expect(json.code, json.stderr).toBe(0);
      expect(JSON.parse(json.stdout)).toEqual([
        expect.objectContaining({
          event: 'scan.completed',
          status: 204,
          ok: true,
          duration_ms: expect.any(Number),
        }),
      ]);
      expect(rx.hits).toHaveLength(1);
      expect((await w.run(['webhooks', 'replay', dir, '--to', rx.url, '-o', 'csv'], {})).code).toBe(2);
      const noSecret = await w.run(['webhooks', 'replay', dir, '--to', rx.url, '--resign'], {});
      expect(noSecret.code).toBe(2);
      expect(noSecret.stderr).toMatch(/no webhook secret/);
      expect(rx.hits).toHaveLength(1);
    } finally {
      await rx.close();
    }
  });
});

describe('listen --events, duplicates, --tolerance', () => {
  it('--events: the other events are answered 2xx but neither printed, saved nor forwarded', async () => {
    const dir = join(w.dir, 'events');
    const target = await testReceiver({ secret: SECRET });
    try {
      const l = await listen([
        '--events',
        'scan.failed',
        '--save',
        dir,
        '--forward-to',
        target.url,
        '-o',
        'ndjson',
      ]);
      await register(l.url, 'scan.completed,scan.failed');
      await startScan(w.url, token, 'legacy-fail');
      await until(
        () =>
          w.sandbox.deliveries.length === 2 && w.sandbox.deliveries.every((d) => d.outcome === 'delivered'),
        'both deliveries',
      );
      const byEvent = Object.fromEntries(w.sandbox.deliveries.map((d) => [d.event, d.status]));
      expect(byEvent).toEqual({ 'scan.completed': 200, 'scan.failed': 204 });
      await until(() => lines(l.stdout()).length === 1, 'the scan.failed line');
      expect(JSON.parse(l.stdout()).event).toBe('scan.failed');
      expect(target.hits.map((h) => JSON.parse(h.raw.toString()).event)).toEqual(['scan.failed']);
      expect(savedIn(dir).map((f) => f.json.event)).toEqual(['scan.failed']);
    } finally {
      await target.close();
    }
  });

  it('a body received twice is answered 200 and reported as a duplicate, forwarded and saved once', async () => {
    const dir = join(w.dir, 'dups');
    const target = await testReceiver({ secret: SECRET });
    try {
      const l = await listen(['--forward-to', target.url, '--save', dir, '-o', 'ndjson']);
      const body = delivery('finding.high', { id: 'f1' });
      expect((await signedPost(l.url, body)).status).toBe(204);
      const again = await signedPost(l.url, body);
      expect(again.status).toBe(200);
      expect(JSON.parse(again.body)).toEqual({ status: 200, message: 'duplicate' });
      await until(() => lines(l.stdout()).length === 2, 'two lines');
      const [first, second] = lines(l.stdout()).map((x) => JSON.parse(x));
      expect(first).toEqual(JSON.parse(body));
      expect(second).toEqual({ ...JSON.parse(body), duplicate: true });
      expect(target.hits).toHaveLength(1);
      expect(savedIn(dir)).toHaveLength(1);

      // In text, the line is marked; with --forward-duplicates the copy is relayed on purpose.
      const l2 = await listen(['--forward-to', target.url, '--forward-duplicates']);
      expect((await signedPost(l2.url, body)).status).toBe(204);
      expect((await signedPost(l2.url, body)).status).toBe(204);
      expect(target.hits).toHaveLength(3);
      expect(target.hits.every((h) => h.raw.equals(Buffer.from(body)))).toBe(true);
      await until(() => lines(l2.stdout()).length === 2, 'two text lines');
      const text = lines(l2.stdout());
      expect(text[0]).not.toContain('[duplicate]');
      expect(text[1]).toMatch(/ {2}\[duplicate\] {2}-> 204$/);
    } finally {
      await target.close();
    }
  });

  it('--tolerance: a payload timestamp too far from the clock is answered 400 and not forwarded', async () => {
    const target = await testReceiver({ secret: SECRET });
    try {
      const l = await listen(['--tolerance', '30s', '--forward-to', target.url]);
      const old = delivery('scan.completed', {}, new Date(Date.now() - 5 * 60_000));
      const res = await signedPost(l.url, old);
      expect(res.status).toBe(400);
      expect(JSON.parse(res.body).message).toMatch(
        /^the payload timestamp is 30\d s old, outside --tolerance$/,
      );
      expect(
        (await signedPost(l.url, delivery('scan.completed', {}, new Date(Date.now() + 120_000)))).status,
      ).toBe(400);
      expect(target.hits).toEqual([]);
      expect((await signedPost(l.url, delivery('scan.completed'))).status).toBe(204);
      expect(target.hits).toHaveLength(1);
      expect(l.stderr()).toMatch(
        /rejected POST \/ from 127\.0\.0\.1: the payload timestamp .* outside --tolerance \(400\)/,
      );
      await until(() => lines(l.stdout()).length === 1, 'one line');
    } finally {
      await target.close();
    }
  });

  it.each([
    [['--events', 'scan.exploded'], /unknown event "scan.exploded"/],
    [['--events', ''], /--events is empty/],
    [['--tolerance', '30'], /invalid --tolerance "30": expected a duration such as 30s, 5m or 1h30m/],
    [['--tolerance', '0s'], /longer than 0/],
    [['--tolerance', '-5m'], /invalid --tolerance/],
    [['--forward-duplicates'], /--forward-duplicates needs --forward-to/],
    [['--save', '/etc/hostname'], /--save \/etc\/hostname is not a folder/],
    // A relay to itself would loop (thousands a second with --forward-duplicates).
    [
      ['--port', '45123', '--forward-to', 'http://localhost:45123/', '--forward-duplicates'],
      /--forward-to http:\/\/localhost:45123\/ is this receiver itself/,
    ],
    [
      [
        '--host',
        '0.0.0.0',
        '--port',
        '45123',
        '--path',
        '/hook',
        '--forward-to',
        'http://127.0.0.1:45123/hook',
      ],
      /is this receiver itself/,
    ],
  ])('refuses %j with exit 2, before listening', async (args, message) => {
    const res = await w.run(['webhooks', 'listen', '--port', '0', ...args], {
      env: { CSSCTL_WEBHOOK_SECRET: SECRET },
      timeoutMs: 5000,
    });
    expect(res.code, res.stderr).toBe(2);
    expect(errorLine(res)).toMatch(message);
  });
});

// ---- a full disk ------------------------------------------------------------------------------

/** A 64 KiB tmpfs, when this process may mount one (root with CAP_SYS_ADMIN); else undefined. */
function smallTmpfs(at: string): (() => void) | undefined {
  mkdirSync(at, { recursive: true });
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k,mode=0700', 'tmpfs', at], { stdio: 'ignore' });
  } catch {
    return undefined;
  }
  return () => execFileSync('umount', [at], { stdio: 'ignore' });
}

/** Fills the file system holding `dir` until a write fails; returns the filler's path. */
function fill(dir: string): string {
  const path = join(dir, 'filler');
  let size = 0;
  for (const chunk of [4096, 512, 64, 1]) {
    for (;;) {
      try {
        writeFileSync(path, Buffer.alloc(size + chunk));
        size += chunk;
      } catch {
        writeFileSync(path, Buffer.alloc(size));
        break;
      }
    }
  }
  return path;
}

describe('listen --save on a full disk', () => {
  const mnt = () => join(w.dir, 'tiny');
  let unmount: (() => void) | undefined;
  beforeAll(() => {
    unmount = smallTmpfs(mnt());
  });
  afterAll(() => unmount?.());

  it('answers 500 so the service retries, leaves nothing half-written, and saves the retry once there is room', async (t) => {
    if (!unmount) t.skip(); // needs mount(8) with privileges; the ulimit test below runs everywhere
    const dir = mnt();
    const filler = fill(dir);
    const l = await listen(['--save', dir]);
    await register(l.url, 'scan.completed');
    const scanId = await startScan(w.url, token, 'prod');
    await until(
      () => (w.sandbox.deliveries[0]?.attempts ?? 0) >= 1 && w.sandbox.deliveries[0]?.status === 500,
      'a 500',
    );
    expect(w.sandbox.deliveries[0]!.outcome).toBe('pending');
    expect(readdirSync(dir)).toEqual(['filler']);
    expect(l.stderr()).toMatch(
      /rejected POST \/ from 127\.0\.0\.1: not saved: cannot write .*\.json: no space left on the device \(500\)/,
    );
    expect(l.stdout()).toBe('');

    rmSync(filler);
    await until(() => w.sandbox.deliveries[0]!.outcome === 'delivered', 'the retry to be taken');
    expect(w.sandbox.deliveries[0]!.attempts).toBeGreaterThan(1);
    const files = savedIn(dir);
    expect(files).toHaveLength(1);
    expect(files[0]!.raw.toString()).toBe(w.sandbox.deliveries[0]!.body);
    await until(() => l.stdout().includes(scanId), 'the line');
    expect(lines(l.stdout())).toHaveLength(1);
  });

  it('a write past the file-size limit (ulimit -f, no privileges needed) is answered 500 with nothing left behind', async () => {
    const dir = join(w.dir, 'limited');
    // 4 KiB: a small delivery's file fits, an 8 KiB one does not (the write fails with EFBIG).
    const l = await listen(['--save', dir], 'ulimit -f 4');
    expect((await signedPost(l.url, delivery('scan.completed'))).status).toBe(200);
    const big = delivery('finding.high', { pad: 'x'.repeat(8192) });
    const res = await signedPost(l.url, big);
    expect(res.status).toBe(500);
    await until(() => /\(500\)/.test(l.stderr()), 'the warning');
    expect(l.stderr()).toMatch(
      /not saved: cannot write .*finding\.high-[0-9a-f]{8}\.json: file too large \(past the file-size limit\) \(500\)/,
    );
    const names = readdirSync(dir);
    expect(names).toHaveLength(1);
    expect(names[0]).toMatch(/-scan\.completed-/);
    await until(() => lines(l.stdout()).length === 1, 'one line');
  });

  it('on SIGTERM with a delivery in flight, its file is whole and nothing else is left', async () => {
    const dir = join(w.dir, 'interrupted');
    const target = await testReceiver({ secret: SECRET, delayMs: 400 });
    try {
      const l = await listen(['--save', dir, '--forward-to', target.url]);
      const body = delivery('scan.completed');
      const pending = signedPost(l.url, body);
      await until(() => target.hits.length === 1, 'the forward to start');
      l.child.kill('SIGTERM');
      expect((await pending).status).toBe(204);
      expect((await l.exited).code).toBe(0);
      const files = savedIn(dir);
      expect(files.map((f) => f.raw.toString())).toEqual([body]);
    } finally {
      await target.close();
    }
  });
});

describe('webhooks verify explains', () => {
  it('a real delivery re-serialised by a framework, in one line', async () => {
    const l = await listen([]);
    await register(l.url, 'scan.completed');
    await startScan(w.url, token, 'staging');
    await until(() => w.sandbox.deliveries[0]?.outcome === 'delivered', 'the delivery');
    const d = w.sandbox.deliveries[0]!;
    const pretty = JSON.stringify(JSON.parse(d.body), null, 2);
    const res = await w.run(['webhooks', 'verify', '--signature', d.signature], {
      env: { CSSCTL_WEBHOOK_SECRET: SECRET },
      input: pretty,
    });
    expect(res.code).toBe(1);
    expect(errorLine(res)).toBe(
      'error: invalid signature: the body looks re-serialised: the signature matches compact JSON (JSON.stringify), not these bytes — verify the raw body as received, before any parsing',
    );
    const wrong = await w.run(['webhooks', 'verify', '--signature', d.signature], {
      env: { CSSCTL_WEBHOOK_SECRET: 'not-it' },
      input: d.body,
    });
    expect(wrong.code).toBe(1);
    expect(errorLine(wrong)).toMatch(/the secret is wrong for this body/);
    const ok = await w.run(['webhooks', 'verify', '--signature', d.signature], {
      env: { CSSCTL_WEBHOOK_SECRET: SECRET },
      input: d.body,
    });
    expect(ok.code).toBe(0);
  });
});

describe('listen --save where no folder can be made', () => {
  // Node's recursive mkdir retries for ever under /proc (100% CPU, deaf to signals): one line and exit 1 instead.
  it.skipIf(process.platform !== 'linux')(
    'a --save folder under /proc is exit 1 naming it, at once; so is a config folder there',
    async () => {
      for (const dir of ['/proc/nope/x', '/proc/nope', '/proc/self/nope/deeper/still']) {
        const res = await w.run(['webhooks', 'listen', '--save', dir, '--port', '0'], {
          env: { ...env, CSSCTL_WEBHOOK_SECRET: SECRET },
          timeoutMs: 15_000,
        });
        expect(res.code, res.stderr).toBe(1);
        expect(errorLine(res)).toMatch(
          new RegExp(`^error: --save: cannot create the folder ${dir}: /proc\\S* cannot hold new folders$`),
        );
        expect(res.stderr).not.toContain('Listening');
      }
      const config = await w.run(['config', 'set', 'workspace', 'acme'], {
        env: { CSSCTL_CONFIG_DIR: '/proc/nope/cssctl' },
        timeoutMs: 15_000,
      });
      expect(config.code, config.stderr).toBe(1);
      expect(errorLine(config)).toContain('cannot create the folder /proc/nope/cssctl');
    },
  );
});
