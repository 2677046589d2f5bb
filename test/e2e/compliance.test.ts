// `cssctl compliance` against the sandbox (cli-contract.md §14): the score, a drop end to end — a scan with
// critical findings, compliance.score_dropped at `webhooks listen`, `--fail-under 80` failing with exit 10 and a
// step-summary section — and bad input: --fail-under out of range (exit 2, no request), a service without the
// endpoint (exit 5), an answer of the wrong shape (exit 1).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { complianceScore } from '../sandbox/compliance.js';
import { World, errorLine } from './harness.js';
import { killListeners, startListen, until } from './webhook-helpers.js';

let w: World;
beforeAll(async () => {
  w = await World.start({
    rateLimit: 100_000,
    scanRateLimit: 100_000,
    scanStepMs: 100,
    findingsPerWorkspace: 20,
  });
  await w.login('acme');
  w.env = { ...w.env, CSSCTL_POLL_BASE_MS: '30' };
});
afterAll(() => w.close());
afterEach(() => killListeners());

describe('cssctl compliance', () => {
  it('a drop end to end: a scan, the event at webhooks listen, --fail-under 80 failing', async () => {
    const before = await w.run(['compliance']);
    expect(before.code, before.stderr).toBe(0);
    expect(before.stdout).toMatch(/^SCORE\s+100\nTHRESHOLD\s+70\nBELOW THRESHOLD\s+no\n/);

    const secret = 'whsec-compliance-e2e';
    const env = { ...w.env, CSSCTL_WEBHOOK_SECRET: secret };
    const listen = await startListen(env, ['--events', 'compliance.score_dropped', '-o', 'ndjson']);
    const hook = await w.run(
      ['webhooks', 'create', '--url', listen.url, '--events', 'compliance.score_dropped'],
      {
        env,
      },
    );
    expect(hook.code, hook.stderr).toBe(0);

    const scan = await w.run(['scans', 'create', '--connection', 'prod', '--wait', '--json']);
    expect(scan.code, scan.stderr).toBe(0);
    const s = JSON.parse(scan.stdout) as { scan_id: string; critical_count: number; high_count: number };
    expect(s.critical_count).toBeGreaterThan(0);

    await until(() => listen.stdout().includes('compliance.score_dropped'), 'the drop at webhooks listen');
    const event = JSON.parse(listen.stdout().trim().split('\n')[0]!) as {
      event: string;
      workspace: string;
      data: { score: number; previous_score: number };
    };
    expect(event).toMatchObject({
      event: 'compliance.score_dropped',
      workspace: 'acme',
      data: { previous_score: 100, threshold: 70, scan_id: s.scan_id, connection_alias: 'prod' },
    });
    expect(event.data.score).toBe(complianceScore(s.critical_count, s.high_count));

    const summary = join(w.dir, 'compliance-summary.md');
    writeFileSync(summary, '');
    const gate = await w.run(['compliance', '--fail-under', '80'], { env: { GITHUB_STEP_SUMMARY: summary } });
    expect(gate.code).toBe(10);
    expect(gate.stdout).toMatch(new RegExp(`^SCORE\\s+${event.data.score}\n`));
    expect(gate.stdout).toMatch(/\nFAIL UNDER\s+80: failed, the score is below it \(exit 10\)\n/);
    expect(errorLine(gate)).toBe(`error: compliance score ${event.data.score} is below --fail-under 80`);
    const json = await w.run(['compliance', '--json', '--fail-under', '80', '--no-step-summary'], {
      env: { GITHUB_STEP_SUMMARY: summary },
    });
    expect(json.code).toBe(10);
    const score = JSON.parse(json.stdout) as { score: number; threshold: number; computed_at: string };
    expect(score).toMatchObject({ score: event.data.score, threshold: 70 });
    expect(JSON.parse(json.stderr).error).toMatchObject({ exit_code: 10 });
    const md = readFileSync(summary, 'utf8');
    expect(md).toContain('### cssctl compliance score');
    expect(md).toContain('| Workspace | acme |');
    expect(md).toContain('❌ `--fail-under 80` failed');
    // Once: --no-step-summary left it alone.
    expect(md.match(/### cssctl compliance score/g)).toHaveLength(1);

    const pass = await w.run(['compliance', '--fail-under', String(score.score)]);
    expect(pass.code, pass.stderr).toBe(0);
  });

  it.each(['101', '-5', 'abc', '80%'])('--fail-under %s: exit 2 before any request', async (v) => {
    w.sandbox.clearRequests();
    const r = await w.run(['compliance', '--fail-under', v]);
    expect(r.code).toBe(2);
    expect(errorLine(r)).toContain('expected a score from 0 to 100');
    expect(w.sandbox.requests).toHaveLength(0);
  });

  it('a service without the endpoint: exit 5, one line', async () => {
    const off = await World.start({ complianceEndpoint: false });
    try {
      await off.login('acme');
      const r = await off.run(['compliance', '--fail-under', '80']);
      expect(r.code).toBe(5);
      expect(r.stdout).toBe('');
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(errorLine(r)).toMatch(/^error: this service does not publish a compliance score \(HTTP 404/);
    } finally {
      await off.close();
    }
  });
});

describe('an answer of the wrong shape', () => {
  let server: Server;
  let url: string;
  let body = '{}';
  beforeAll(async () => {
    server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(body);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it.each([
    ['{"threshold": 70}', "error: the service's compliance answer has no score"],
    ['{"score": "high"}', `error: the service's compliance answer has a score that is not a number: "high"`],
    ['{"score": 250}', "error: the service's compliance answer has a score of 250, outside 0–100"],
  ])('%s: exit 1 with one clear line', async (answer, line) => {
    body = answer;
    const r = await w.run(['compliance', '--fail-under', '50'], {
      env: { CSSCTL_TOKEN: 'token', CSSCTL_BASE_URL: url, CSSCTL_WORKSPACE: 'acme' },
    });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim()).toBe(line);
  });
});
