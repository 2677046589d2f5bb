// `--wait-timeout` is a deadline for the whole wait (issue 20 #1): a poll that hangs, retries or waits on a
// rate limit is cut short at it — exit 9 with the resume command — and Ctrl-C still stops it at once.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { World, errorLine, lines, received, runCli } from './harness.js';
import { interruptWhen } from './interrupt.js';

let w: World;
let id: string;

beforeAll(async () => {
  // Scans that stay `queued` for an hour: every wait here ends at its deadline, never with the scan.
  w = await World.start({ rateLimit: 100_000, scanRateLimit: 100_000, scanStepMs: 3_600_000 });
  await w.login('acme');
  w.env = { ...w.env, CSSCTL_POLL_BASE_MS: '200' };
  const created = await w.run(['scans', 'create', '--connection', 'prod', '--json']);
  expect(created.code, created.stderr).toBe(0);
  id = (JSON.parse(created.stdout) as { scan_id: string }).scan_id;
});
afterAll(() => w.close());
beforeEach(() => {
  w.sandbox.clearFaults();
  w.sandbox.clearRequests();
  // A 429 leaves its window in ratelimit-state.json for the next process: each case starts without one.
  rmSync(join(w.configDir, 'ratelimit-state.json'), { force: true });
});

/** The resume line of exit 9 (its last stderr line), parsed. */
function timedOut(stderr: string, scanId: string): { why: string; resume: string } {
  const last = lines(stderr).at(-1) ?? '';
  const m =
    /^error: (?:scan \S+ is still \w+|no answer about scan \S+) after [\d.]+s \(--wait-timeout(?:: (.*))?\); resume with: (.*)$/.exec(
      last,
    );
  expect(m, stderr).not.toBeNull();
  expect(m![2]).toContain(`cssctl scans wait ${scanId}`);
  return { why: m![1] ?? '', resume: m![2]! };
}

describe('--wait-timeout cuts every request and wait of the poll', () => {
  it('a service that hangs on GET /scans/{id} after one answer: exit 9 at the deadline, not after 30 s × 3', async () => {
    w.sandbox.injectFaults({ kind: 'hang', method: 'GET', path: '/scans/', skip: 1 });
    const res = await w.run(['scans', 'wait', id, '--wait-timeout', '3'], { timeoutMs: 30_000 });
    expect(res.code, res.stderr).toBe(9);
    expect(res.ms).toBeGreaterThanOrEqual(2900);
    expect(res.ms).toBeLessThan(3000 + 2500);
    const { why, resume } = timedOut(res.stderr, id);
    expect(why).toMatch(/^no answer from 127\.0\.0\.1:\d+ before the deadline$/);
    expect(resume).toBe(`cssctl scans wait ${id} --wait-timeout 3`);
    expect(res.stderr).toMatch(new RegExp(`^error: scan ${id} is still queued after`, 'm'));
    // One answer, then the poll that hung: never a retry of it.
    expect(received(w.sandbox, `/scans/${id}`, 'GET').map((r) => r.fault ?? r.status)).toEqual([200, 'hang']);
  });

  it('hanging from the first poll: "no answer about scan …", still exit 9 and the resume command', async () => {
    w.sandbox.injectFaults({ kind: 'hang', method: 'GET', path: '/scans/' });
    const res = await w.run(['scans', 'wait', id, '--wait-timeout', '2', '--fail-on', 'high'], {
      timeoutMs: 30_000,
    });
    expect(res.code, res.stderr).toBe(9);
    expect(res.ms).toBeLessThan(2000 + 2500);
    expect(lines(res.stderr).at(-1)).toMatch(new RegExp(`^error: no answer about scan ${id} after 2\\.\\ds`));
    expect(timedOut(res.stderr, id).resume).toBe(`cssctl scans wait ${id} --wait-timeout 2 --fail-on high`);
  });

  it('an answer that stalls in its body is cut at the deadline too', async () => {
    w.sandbox.injectFaults({ kind: 'stall-body', ms: 60_000, method: 'GET', path: '/scans/', skip: 1 });
    const res = await w.run(['scans', 'wait', id, '--wait-timeout', '2'], { timeoutMs: 30_000 });
    expect(res.code, res.stderr).toBe(9);
    expect(res.ms).toBeLessThan(2000 + 2500);
    expect(timedOut(res.stderr, id).why).toMatch(/before the deadline$/);
  });

  it('429 with Retry-After: 25 and --wait-timeout 2: exit 9 at once, not a 25 s wait and exit 8', async () => {
    w.sandbox.injectFaults({
      kind: 'status',
      status: 429,
      retryAfterSeconds: 25,
      method: 'GET',
      path: '/scans/',
    });
    const res = await w.run(['scans', 'wait', id, '--wait-timeout', '2'], { timeoutMs: 30_000 });
    expect(res.code, res.stderr).toBe(9);
    expect(res.ms).toBeLessThan(2000 + 2500);
    expect(timedOut(res.stderr, id).why).toMatch(
      /^the service asks to wait 2[5-7]s before the next request, past the deadline$/,
    );
    // Nothing was sent early: the one 429, and no request after it.
    expect(received(w.sandbox, '/scans/', 'GET').map((r) => r.status)).toEqual([429]);
  });

  it('--max-wait still decides (exit 8) when the rate-limit budget runs out before the deadline', async () => {
    w.sandbox.injectFaults({
      kind: 'status',
      status: 429,
      retryAfterSeconds: 25,
      method: 'GET',
      path: '/scans/',
    });
    const res = await w.run(['scans', 'wait', id, '--wait-timeout', '60', '--max-wait', '5'], {
      timeoutMs: 30_000,
    });
    expect(res.code, res.stderr).toBe(8);
    expect(lines(res.stderr).at(-1)).toMatch(
      /^error: rate limited: the service asks to wait 2\ds, past --max-wait 5s/,
    );
  });

  it('server errors whose retry would come after the deadline: exit 9 without waiting for the retry', async () => {
    w.sandbox.injectFaults({ kind: 'status', status: 503, method: 'GET', path: '/scans/', count: 5 });
    // Retries 2 s then 4 s apart (the real schedule): the first retry already lands after the deadline.
    const res = await w.run(['scans', 'wait', id, '--wait-timeout', '1.5'], {
      timeoutMs: 30_000,
      env: { CSSCTL_RETRY_BASE_MS: '1000' },
    });
    expect(res.code, res.stderr).toBe(9);
    expect(res.ms).toBeLessThan(1500 + 2500);
    expect(timedOut(res.stderr, id).why).toMatch(
      /^the service answered HTTP 503; a retry in 2\.\ds would come after the deadline$/,
    );
  });

  it('scans create --wait: the polls after the creation are cut at the deadline as well', async () => {
    w.sandbox.injectFaults({ kind: 'hang', method: 'GET', path: '/scans/' });
    const res = await w.run(
      ['scans', 'create', '--connection', 'prod', '--wait', '--wait-timeout', '2', '-o', 'sarif'],
      { timeoutMs: 30_000 },
    );
    expect(res.code, res.stderr).toBe(9);
    expect(res.ms).toBeLessThan(2000 + 2500);
    const created = /Started scan (scn_\w+)/.exec(res.stderr)![1]!;
    expect(lines(res.stderr).at(-1)).toMatch(new RegExp(`^error: scan ${created} is still queued after`));
    expect(timedOut(res.stderr, created).resume).toBe(
      `cssctl scans wait ${created} --wait-timeout 2 -o sarif`,
    );
    expect(res.stdout).toBe('');
  });
});

describe('a session refresh needed during the wait', () => {
  it('a refresh that hangs is cut at the deadline as well', async () => {
    const file = join(w.configDir, 'credentials.json');
    const saved = readFileSync(file, 'utf8');
    try {
      // The access token expires within the 60 s refresh margin: the first poll refreshes it first.
      const data = JSON.parse(saved) as { profiles: Record<string, { expires_at: number }> };
      data.profiles.default!.expires_at = Date.now() + 30_000;
      writeFileSync(file, JSON.stringify(data), { mode: 0o600 });
      w.sandbox.injectFaults({ kind: 'hang', method: 'POST', path: '/auth/refresh' });
      const res = await w.run(['scans', 'wait', id, '--wait-timeout', '2'], { timeoutMs: 30_000 });
      expect(res.code, res.stderr).toBe(9);
      expect(res.ms).toBeLessThan(2000 + 2500);
      expect(lines(res.stderr).at(-1)).toMatch(new RegExp(`^error: no answer about scan ${id} after`));
      expect(received(w.sandbox, '/auth/refresh').map((r) => r.fault)).toEqual(['hang']);
    } finally {
      writeFileSync(file, saved, { mode: 0o600 });
    }
  });
});

describe('Ctrl-C during each wait of the poll: exit 130 at once with the resume command', () => {
  const cases: [string, () => void, (s: string) => boolean][] = [
    [
      'a hung poll',
      () => w.sandbox.injectFaults({ kind: 'hang', method: 'GET', path: '/scans/', skip: 1 }),
      () => received(w.sandbox, '/scans/', 'GET').some((r) => r.fault === 'hang'),
    ],
    [
      'a rate-limit wait',
      () =>
        w.sandbox.injectFaults({
          kind: 'status',
          status: 429,
          retryAfterSeconds: 25,
          method: 'GET',
          path: '/scans/',
        }),
      (stderr) => stderr.includes('rate limited by the service; waiting'),
    ],
    [
      'a retry wait',
      () => w.sandbox.injectFaults({ kind: 'status', status: 503, method: 'GET', path: '/scans/', count: 5 }),
      (stderr) => stderr.includes('retrying in'),
    ],
  ];
  it.each(cases)('%s', async (_name, inject, ready) => {
    inject();
    const started = Date.now();
    const res = await interruptWhen(
      ['scans', 'wait', id, '--wait-timeout', '120'],
      { ...w.env, CSSCTL_RETRY_BASE_MS: '10000' },
      ({ stderr }) => ready(stderr),
      100,
    );
    expect(res.code, res.stderr).toBe(130);
    expect(Date.now() - started).toBeLessThan(8_000);
    expect(lines(res.stderr).at(-1)).toBe(
      `error: interrupted; resume with: cssctl scans wait ${id} --wait-timeout 120`,
    );
  });

  it('SIGTERM during a hung poll: the same', async () => {
    w.sandbox.injectFaults({ kind: 'hang', method: 'GET', path: '/scans/', skip: 1 });
    const res = await interruptWhen(
      ['scans', 'wait', id, '--wait-timeout', '120'],
      w.env,
      () => received(w.sandbox, '/scans/', 'GET').some((r) => r.fault === 'hang'),
      100,
      'SIGTERM',
    );
    expect(res.code, res.stderr).toBe(130);
    expect(lines(res.stderr).at(-1)).toBe(
      `error: interrupted; resume with: cssctl scans wait ${id} --wait-timeout 120`,
    );
  });
});

describe('a service that answers the poll with the wrong shape', () => {
  let server: Server;
  let answers: string[] = [];
  let env: Record<string, string | undefined>;
  beforeAll(async () => {
    server = createServer((_req, res) => {
      const body = answers.length > 1 ? answers.shift()! : (answers[0] ?? '');
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(body);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    env = {
      ...w.env,
      CSSCTL_TOKEN: 'shape-test-token',
      CSSCTL_BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      CSSCTL_WORKSPACE: 'acme',
      CSSCTL_POLL_BASE_MS: '50',
    };
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it.each([
    ['a list', '[]', /^error: the service's answer is not a scan \(\[\]\)$/],
    ['not JSON', '<html>busy</html>', /^error: the service answered HTTP 200 with a body that is not JSON$/],
    [
      'an object without scan_id',
      '{"status":"running"}',
      /^error: the service's answer is not a scan \(no scan_id\)$/,
    ],
  ])('after one good answer, %s: exit 1, one line, at once', async (_name, bad, message) => {
    answers = ['{"scan_id":"scn_h","status":"running"}', bad];
    const res = await runCli(['scans', 'wait', 'scn_h', '--wait-timeout', '30'], env, { timeoutMs: 10_000 });
    expect(res.code, res.stderr).toBe(1);
    expect(res.ms).toBeLessThan(5_000);
    expect(errorLine(res)).toMatch(message);
  });
});
