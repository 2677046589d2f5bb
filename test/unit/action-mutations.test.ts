// The GitHub Action's main step in process (runMain with a scripted service and a fake clock): what only the
// end-to-end tests used to catch (issue 35, "mutations that survived"): the step's `gate` output read the right
// way round; the masks of the password and of the tokens a login brings printed under a runner, and nothing of
// the kind printed where no runner reads the log (a mask line there shows the very secret it hides).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runMain } from '../../src/action/index.js';
import type { HttpRequest, HttpResponse } from '../../src/core/http/types.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { maskedLog, parseFileCommands } from '../helpers/runner-files.js';
import { Collect } from '../helpers/streams.js';
import { scanOf } from '../helpers/verb.js';

const PASSWORD = 'pw-Secret-7781';
const ACCESS = 'access-token-5f1e9c';
const REFRESH = 'refresh-token-a03b77';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cssctl-action-mutations-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

interface Step {
  code: number;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  requests: string[];
}

/** Runs the main step against a service that signs in and answers GET /scans/scn_1 with `scan`. */
async function step(
  inputs: Record<string, string>,
  scan: Record<string, unknown>,
  env: Record<string, string> = {},
): Promise<Step> {
  const output = join(dir, 'output');
  writeFileSync(output, '');
  const requests: string[] = [];
  const reply = (status: number, body: unknown): HttpResponse => ({
    status,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const transport = async (req: HttpRequest): Promise<HttpResponse> => {
    const url = new URL(req.url);
    requests.push(`${req.method} ${url.pathname}${url.search}`);
    if (req.method === 'POST' && url.pathname.endsWith('/auth/login'))
      return reply(200, {
        access_token: ACCESS,
        refresh_token: REFRESH,
        token_type: 'bearer',
        expires_in: 3600,
      });
    if (req.method === 'GET' && url.pathname.endsWith('/scans/scn_1')) return reply(200, scan);
    // The service's count of one severity (limit=1, reading total), as the gate asks for it.
    if (req.method === 'GET' && url.pathname.endsWith('/findings')) {
      const severity = url.searchParams.get('severity');
      const total = severity ? Number(scan[`${severity}_count`] ?? 0) : 0;
      return reply(200, { total, findings: [], limit: Number(url.searchParams.get('limit')), offset: 0 });
    }
    return reply(404, { detail: 'not found', code: 'not_found' });
  };
  const world = {
    env: {
      'INPUT_BASE-URL': 'http://127.0.0.1:1',
      INPUT_WORKSPACE: 'acme',
      INPUT_EMAIL: 'ci@example.com',
      INPUT_PASSWORD: PASSWORD,
      'INPUT_SCAN-ID': 'scn_1',
      ...Object.fromEntries(Object.entries(inputs).map(([k, v]) => [`INPUT_${k.toUpperCase()}`, v])),
      GITHUB_OUTPUT: output,
      RUNNER_TEMP: dir,
      HOME: dir,
      ...env,
    } as NodeJS.ProcessEnv,
    stdout: new Collect(),
    stderr: new Collect(),
    transport,
    clock: new FakeClock(),
  };
  const code = await runMain(world);
  return {
    code,
    stdout: world.stdout.text,
    stderr: world.stderr.text,
    outputs: parseFileCommands(readFileSync(output, 'utf8')),
    requests,
  };
}

/** The values the step asked the runner to mask, in order. */
function masksIn(stdout: string): string[] {
  return [...stdout.matchAll(/^::add-mask::(.*)$/gm)].map((m) => m[1]!);
}

describe("the step's gate output", () => {
  it('fail-on met (2 critical, fail-on critical): gate is failed, the step fails', async () => {
    const s = await step({ 'fail-on': 'critical' }, scanOf({ critical_count: 2, high_count: 4 }));
    expect(s.requests).toContain('GET /api/v1/scans/scn_1');
    expect(s.outputs.gate).toBe('failed');
    expect(s.outputs['exit-code']).toBe('10');
    expect(s.outputs.critical).toBe('2');
    expect(s.code).toBe(1);
  });

  it('fail-on not met (0 critical, fail-on critical): gate is passed, the step succeeds', async () => {
    const s = await step(
      { 'fail-on': 'critical' },
      scanOf({ total_findings: 4, critical_count: 0, high_count: 4 }),
    );
    expect(s.outputs.gate).toBe('passed');
    expect(s.outputs['exit-code']).toBe('0');
    expect(s.outputs.critical).toBe('0');
    expect(s.code).toBe(0);
  });

  it('fail-on high met by high findings alone: failed; without fail-on: none', async () => {
    const met = await step(
      { 'fail-on': 'high' },
      scanOf({ total_findings: 4, critical_count: 0, high_count: 4 }),
    );
    expect(met.outputs.gate).toBe('failed');
    const none = await step({}, scanOf({ critical_count: 2 }));
    expect(none.outputs.gate).toBe('none');
    expect(none.code).toBe(0);
  });
});

describe('masks in the job log', () => {
  it('under a runner (GITHUB_ACTIONS=true): the password and both tokens of the login are masked', async () => {
    const s = await step({ 'fail-on': 'critical' }, scanOf({ critical_count: 0 }), {
      GITHUB_ACTIONS: 'true',
    });
    expect(s.code).toBe(0);
    const masks = masksIn(s.stdout);
    expect(masks).toContain(PASSWORD);
    expect(masks).toContain(ACCESS);
    expect(masks).toContain(REFRESH);
    // Masked before anything else is printed: the password's mask comes first.
    expect(s.stdout.startsWith(`::add-mask::${PASSWORD}\n`)).toBe(true);
    // As the runner shows the log: no secret left in it.
    for (const secret of [PASSWORD, ACCESS, REFRESH]) expect(maskedLog(s.stdout)).not.toContain(secret);
  });

  it('each secret is masked once, however often the core learns it', async () => {
    const s = await step({ 'fail-on': 'critical' }, scanOf({ critical_count: 0 }), {
      GITHUB_ACTIONS: 'true',
    });
    const masks = masksIn(s.stdout);
    expect(masks.filter((m) => m === ACCESS)).toHaveLength(1);
    expect(masks.filter((m) => m === PASSWORD)).toHaveLength(1);
  });

  for (const [why, env] of [
    ['GITHUB_ACTIONS unset', {}],
    ['GITHUB_ACTIONS=false', { GITHUB_ACTIONS: 'false' }],
  ] as const) {
    it(`where no runner reads the log (${why}): no mask line, no secret anywhere`, async () => {
      const s = await step({ 'fail-on': 'critical' }, scanOf({ critical_count: 2 }), env);
      expect(s.code).toBe(1);
      expect(s.outputs.gate).toBe('failed');
      expect(masksIn(s.stdout)).toEqual([]);
      for (const secret of [PASSWORD, ACCESS, REFRESH]) {
        expect(s.stdout).not.toContain(secret);
        expect(s.stderr).not.toContain(secret);
      }
    });
  }
});
