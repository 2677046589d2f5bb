// The GitHub Action under GitHub's own local runner for JavaScript actions, @github/local-action (a dev
// dependency): `local-action run <action folder> <main entry> <.env> --post <post entry>` reads action.yml, loads
// the .env into the environment, imports each entry (an ES module import of our CommonJS files, since
// package.json says "type": "module") and calls its exported run(), main then post, in one process.
//
// What it does not do (docs/ci.md, "Testing the action"): its stand-ins for @actions/core apply only to code that
// imports @actions/core from node_modules — a bundled action's outputs, state and summary go to the files the
// .env names, not to its "Action Outputs" table — and it passes no state from main to post (the runner's
// STATE_*): the main step sets STATE_session-dir in its own environment too, so the post step, in the same
// process, finds the session.
import { execFile } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { World } from './harness.js';
import { parseFileCommands } from '../helpers/runner-files.js';
import { FakeGithub } from '../helpers/fake-github.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const LOCAL_ACTION = join(ROOT, 'node_modules/@github/local-action/bin/local-action.js');

let w: World;
let dir: string;

beforeAll(async () => {
  w = await World.start({ rateLimit: 100_000, scanRateLimit: 100_000, scanStepMs: 50 });
  dir = mkdtempSync(join(tmpdir(), 'cssctl-local-action-'));
});
afterAll(async () => {
  await w.close();
  rmSync(dir, { recursive: true, force: true });
});

interface LocalRun {
  code: number;
  out: string;
  outputs: Record<string, string>;
  temp: string;
  workspace: string;
}

/** `local-action run` of this checkout's action.yml with these inputs, in a .env as its README shows. */
async function localAction(
  name: string,
  given: (job: { workspace: string }) => Record<string, string>,
  more: (job: { dir: string }) => Record<string, string> = () => ({}),
): Promise<LocalRun> {
  const job = join(dir, name);
  const temp = join(job, 'runner-temp');
  const workspace = join(job, 'workspace');
  mkdirSync(temp, { recursive: true });
  mkdirSync(workspace, { recursive: true });
  const files = {
    GITHUB_OUTPUT: join(temp, 'output'),
    GITHUB_STATE: join(temp, 'state'),
    GITHUB_STEP_SUMMARY: join(temp, 'summary'),
  };
  for (const f of Object.values(files)) writeFileSync(f, '');
  const c = w.cred();
  const vars: Record<string, string> = {
    GITHUB_ACTIONS: 'true',
    RUNNER_TEMP: temp,
    ...files,
    CSSCTL_POLL_BASE_MS: '50',
    'INPUT_BASE-URL': w.url,
    INPUT_WORKSPACE: 'acme',
    INPUT_EMAIL: c.email,
    INPUT_PASSWORD: c.password,
  };
  for (const [k, v] of Object.entries(given({ workspace }))) vars[`INPUT_${k.toUpperCase()}`] = v;
  Object.assign(vars, more({ dir: job }));
  const envFile = join(job, '.env');
  writeFileSync(
    envFile,
    Object.entries(vars)
      .map(([k, v]) => `${k}=${v}\n`)
      .join(''),
  );
  const res = await new Promise<{ code: number; out: string }>((resolve) => {
    execFile(
      process.execPath,
      [LOCAL_ACTION, 'run', ROOT, 'dist/action/main.cjs', envFile, '--post', 'dist/action/post.cjs'],
      {
        // It runs `npm exec tsx` and `npm ls` in its working folder: this checkout, offline.
        cwd: ROOT,
        env: {
          PATH: process.env.PATH,
          HOME: join(job, 'home'),
          npm_config_offline: 'true',
          npm_config_update_notifier: 'false',
          npm_config_cache: join(dir, 'npm-cache'),
          NO_COLOR: '1',
        },
        timeout: 110_000,
        maxBuffer: 64 * 1024 * 1024,
      },
      (err, stdout, stderr) =>
        resolve({ code: err ? ((err as { code?: number }).code ?? -1) : 0, out: stdout + stderr }),
    );
  });
  return { ...res, outputs: parseFileCommands(readFileSync(files.GITHUB_OUTPUT, 'utf8')), temp, workspace };
}

describe.skipIf(!!process.env.CSSCTL_TEST_BIN)('@github/local-action', () => {
  it('runs main then post: a passing scan, its outputs and report, the session removed', async () => {
    const run = await localAction('pass', ({ workspace }) => ({
      connection: 'prod',
      sarif: join(workspace, 'results.sarif'),
    }));
    expect(run.code, run.out).toBe(0);
    expect(run.out).toContain('Running Action');
    expect(run.out).toMatch(/✓ Scan scn_\w+ completed/);
    expect(run.out).toContain('Running Post Step');
    expect(run.out).toContain('Logged out of profile default (removed from file)');
    expect(run.outputs).toMatchObject({ 'exit-code': '0', gate: 'none' });
    expect(run.outputs['scan-id']).toMatch(/^scn_/);
    expect(run.outputs.sarif).toBe(join(run.workspace, 'results.sarif'));
    expect(existsSync(join(run.workspace, 'results.sarif'))).toBe(true);
    expect(readdirSync(run.temp).filter((f) => f.startsWith('cssctl-action-'))).toEqual([]);
  }, 120_000);

  it('fails on the gate: exit 1 and the gate line as the step error; the pull request gets the comment', async () => {
    const gh = await FakeGithub.start();
    const run = await localAction(
      'fail',
      () => ({ connection: 'prod', 'fail-on': 'low', 'pr-comment': 'true', 'github-token': 'ghs_local' }),
      ({ dir: job }) => {
        const event = join(job, 'event.json');
        writeFileSync(event, JSON.stringify({ pull_request: { number: 3, head: { sha: 'd'.repeat(40) } } }));
        return {
          GITHUB_EVENT_NAME: 'pull_request',
          GITHUB_EVENT_PATH: event,
          GITHUB_REPOSITORY: 'acme/infra',
          GITHUB_API_URL: gh.url,
        };
      },
    ).finally(() => gh.close());
    expect(run.code, run.out).toBe(1);
    expect(run.out).toMatch(/^::error::scan scn_\w+ has \d+ findings at or above low: /m);
    expect(run.outputs).toMatchObject({ 'exit-code': '10', gate: 'failed' });
    expect(gh.requests.filter((r) => r.method === 'POST').map((r) => r.path)).toEqual([
      '/repos/acme/infra/issues/3/comments',
    ]);
    expect(gh.list(3)[0]!.body).toContain(`scan \`${run.outputs['scan-id']}\``);
    expect(readdirSync(run.temp).filter((f) => f.startsWith('cssctl-action-'))).toEqual([]);
  }, 120_000);
});
