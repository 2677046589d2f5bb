// The GitHub Action as the runner runs it (cli-contract.md §12): action.yml's entries, copied with it to a folder
// with no node_modules anywhere above (a release ships nothing else), run by node with the environment the runner
// sets — INPUT_*, GITHUB_OUTPUT, GITHUB_STATE, GITHUB_STEP_SUMMARY, RUNNER_TEMP, GITHUB_ACTIONS — against the
// sandbox; the post step gets the main step's state as STATE_*. Outputs and state are read back with the
// runner's own parsing (test/helpers/runner-files.ts), and the log as it shows it, masks applied.
import { spawn } from 'node:child_process';
import {
  cpSync,
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
import { parse as parseYaml } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPORT_INPUTS } from '../../src/action/inputs.js';
import { World, errorLine, received, runCli, type CliResult } from './harness.js';
import { maskedLog, parseFileCommands } from '../helpers/runner-files.js';
import { FakeGithub } from '../helpers/fake-github.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

interface ActionYml {
  runs: { using: string; main: string; post: string };
  inputs: Record<string, { required?: boolean }>;
  outputs: Record<string, unknown>;
}
const actionYml = parseYaml(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as ActionYml;

/** One job: its runner temp folder and workspace (the step's working folder). */
class Job {
  readonly dir = mkdtempSync(join(tmpdir(), 'cssctl-job-'));
  readonly temp = join(this.dir, 'runner-temp');
  readonly workspace = join(this.dir, 'workspace');
  private steps = 0;
  constructor() {
    mkdirSync(this.temp);
    mkdirSync(this.workspace);
  }
  /** The runner's files for one step, created empty as the runner does. */
  files() {
    const n = ++this.steps;
    const f = {
      GITHUB_OUTPUT: join(this.temp, `set_output_${n}`),
      GITHUB_STATE: join(this.temp, `save_state_${n}`),
      GITHUB_STEP_SUMMARY: join(this.temp, `step_summary_${n}`),
    };
    for (const p of Object.values(f)) writeFileSync(p, '');
    return f;
  }
  sessions(): string[] {
    return readdirSync(this.temp).filter((f) => f.startsWith('cssctl-action-'));
  }
}

interface Step extends CliResult {
  /** The log as the job's page shows it (masks applied). */
  log: string;
  outputs: Record<string, string>;
  state: Record<string, string>;
  summary: string;
}

// The checkout's build of the action, whatever cssctl the rest of the suite runs (CSSCTL_TEST_BIN): once is enough.
describe.skipIf(!!process.env.CSSCTL_TEST_BIN)('the GitHub Action', () => {
  let w: World;
  let actionDir: string;
  const jobs: Job[] = [];
  let password: string;

  beforeAll(async () => {
    w = await World.start({ rateLimit: 100_000, scanRateLimit: 100_000, scanStepMs: 50 });
    password = w.cred().password;
    // The action as a release ships it: action.yml and dist/action/, and nothing installed.
    actionDir = mkdtempSync(join(tmpdir(), 'cssctl-action-release-'));
    cpSync(join(ROOT, 'action.yml'), join(actionDir, 'action.yml'));
    cpSync(join(ROOT, 'dist/action'), join(actionDir, 'dist/action'), { recursive: true });
    // A connection whose scans find no critical (the sandbox: an alias holding "nocrit").
    await w.login();
    const made = await w.run(['connections', 'create', '--alias', 'prod-nocrit', '--provider', 'aws']);
    expect(made.code, made.stderr).toBe(0);
  });
  afterAll(async () => {
    await w.close();
    rmSync(actionDir, { recursive: true, force: true });
    for (const j of jobs) rmSync(j.dir, { recursive: true, force: true });
  });

  function newJob(): Job {
    const j = new Job();
    jobs.push(j);
    return j;
  }

  /** The inputs of a step that logs in to the sandbox's acme as its owner. */
  function inputs(extra: Record<string, string>): Record<string, string> {
    return { 'base-url': w.url, workspace: 'acme', email: w.cred().email, password, ...extra };
  }

  /** Runs one of action.yml's entries as the runner does: `node <entry>` with INPUT_* and the runner's files. */
  async function step(
    which: 'main' | 'post',
    job: Job,
    given: Record<string, string>,
    more: Record<string, string> = {},
  ): Promise<Step> {
    const files = job.files();
    const env: Record<string, string | undefined> = {
      PATH: process.env.PATH,
      HOME: join(job.dir, 'home'),
      LANG: 'C.UTF-8',
      CI: 'true',
      GITHUB_ACTIONS: 'true',
      RUNNER_TEMP: job.temp,
      ...files,
      CSSCTL_POLL_BASE_MS: '50',
      CSSCTL_RETRY_BASE_MS: '20',
      ...more,
    };
    for (const [name, value] of Object.entries(given)) env[`INPUT_${name.toUpperCase()}`] = value;
    const entry = join(actionDir, which === 'main' ? actionYml.runs.main : actionYml.runs.post);
    const res = await runCli([entry], env, {
      command: process.execPath,
      cwd: job.workspace,
      timeoutMs: 30_000,
    });
    return {
      ...res,
      log: maskedLog(res.stdout + res.stderr),
      outputs: parseFileCommands(readFileSync(files.GITHUB_OUTPUT, 'utf8')),
      state: parseFileCommands(readFileSync(files.GITHUB_STATE, 'utf8')),
      summary: readFileSync(files.GITHUB_STEP_SUMMARY, 'utf8'),
    };
  }

  /** The post step, given the main step's state as the runner gives it. */
  function post(job: Job, main: Step): Promise<Step> {
    const state = Object.fromEntries(Object.entries(main.state).map(([k, v]) => [`STATE_${k}`, v]));
    return step('post', job, {}, state);
  }

  /** The step's error annotation: exactly one, the last line of its stdout. */
  function stepError(s: Step): string {
    const errors = s.stdout.split('\n').filter((l) => l.startsWith('::error::'));
    expect(errors, s.stdout + s.stderr).toHaveLength(1);
    return errors[0]!.slice('::error::'.length);
  }

  /** Nothing a step printed or wrote shows the password, except the mask that hides it (which the runner eats). */
  function expectNoPassword(s: Step, job: Job, secret = password): void {
    const printed = (s.stdout + s.stderr).split('\n').filter((l) => !l.startsWith('::add-mask::'));
    expect(printed.join('\n')).not.toContain(secret);
    expect(s.log).not.toContain(secret);
    const written = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? written(join(dir, e.name)) : [readFileSync(join(dir, e.name), 'utf8')],
      );
    for (const text of [...written(job.temp), ...written(job.workspace)]) expect(text).not.toContain(secret);
  }

  describe('action.yml', () => {
    it('is a node24 action whose entries the build made, with the inputs and outputs the step reads and writes', () => {
      expect(actionYml.runs).toEqual({
        using: 'node24',
        main: 'dist/action/main.cjs',
        post: 'dist/action/post.cjs',
      });
      for (const entry of [actionYml.runs.main, actionYml.runs.post])
        expect(existsSync(join(ROOT, entry))).toBe(true);
      expect(Object.keys(actionYml.inputs).sort()).toEqual(
        [
          'base-url',
          'workspace',
          'email',
          'password',
          'connection',
          'scan-id',
          'fail-on',
          'baseline',
          'wait-timeout',
          'max-wait',
          ...REPORT_INPUTS,
          'ignore-file',
          'args',
          'pr-comment',
          'github-token',
        ].sort(),
      );
      expect(actionYml.inputs.password!.required).toBe(true);
    });
  });

  describe('the bundle', () => {
    it('names in its notices, with their licence texts, @octokit/rest and every package it brings', () => {
      const notices = readFileSync(join(ROOT, 'dist/action/THIRD-PARTY-NOTICES.md'), 'utf8');
      for (const name of [
        '@octokit/rest',
        '@octokit/core',
        '@octokit/request',
        '@octokit/plugin-rest-endpoint-methods',
        '@octokit/plugin-paginate-rest',
        'before-after-hook',
        'universal-user-agent',
      ]) {
        expect(notices, name).toMatch(
          new RegExp(`^## ${name.replace('/', '\\/')} \\d[\\w.]*\\n\\nLicence: \\S+`, 'm'),
        );
      }
      // before-after-hook is Apache-2.0: its licence text, not just its name.
      expect(notices).toContain('Apache License');
    });
  });

  describe('the action against the sandbox', () => {
    let passing: { job: Job; main: Step };

    it('a passing gate: exit 0, the reports, the annotations, the step summary and every output', async () => {
      const job = newJob();
      const main = await step(
        'main',
        job,
        inputs({
          connection: 'prod-nocrit',
          'fail-on': 'critical',
          sarif: 'results.sarif',
          junit: 'junit.xml',
          html: 'report.html',
        }),
      );
      passing = { job, main };
      expect(main.code, main.stdout + main.stderr).toBe(0);
      expect(main.outputs).toMatchObject({
        'exit-code': '0',
        gate: 'passed',
        critical: '0',
        sarif: 'results.sarif',
        junit: 'junit.xml',
        html: 'report.html',
        ocsf: '',
      });
      // Every output action.yml declares is set, and no other.
      expect(Object.keys(main.outputs).sort()).toEqual(Object.keys(actionYml.outputs).sort());
      const id = main.outputs['scan-id']!;
      expect(id).toMatch(/^scn_/);
      const scan = JSON.parse((await w.run(['scans', 'get', id, '-o', 'json'])).stdout) as Record<
        string,
        number
      >;
      for (const s of ['critical', 'high', 'medium', 'low', 'info'])
        expect(main.outputs[s], s).toBe(String(scan[`${s}_count`]));
      expect(Number(main.outputs.high)).toBeGreaterThan(0);
      // The reports, in the workspace (the step's working folder).
      const sarif = JSON.parse(readFileSync(join(job.workspace, 'results.sarif'), 'utf8')) as {
        version: string;
      };
      expect(sarif.version).toBe('2.1.0');
      expect(readFileSync(join(job.workspace, 'junit.xml'), 'utf8')).toMatch(/^<\?xml/);
      expect(readFileSync(join(job.workspace, 'report.html'), 'utf8')).toMatch(/^<!DOCTYPE html>/i);
      // An annotation per finding (-o github), and no step error.
      expect(main.stdout).toMatch(/^::error title=.*::high: /m);
      expect(main.stdout).not.toMatch(/^::error::/m);
      expect(main.summary).toContain(`### cssctl scan ${id.replace(/_/g, '\\_')}`);
      expect(main.summary).toContain('✅ `--fail-on critical` passed');
      // The log names the command it amounts to; the session stays for the post step.
      expect(main.log).toContain(
        'cssctl scans create --connection prod-nocrit --wait --fail-on critical -o github --report sarif=results.sarif',
      );
      expect(main.state['session-dir']).toBe(join(job.temp, job.sessions()[0]!));
      expect(readFileSync(join(main.state['session-dir']!, 'credentials.json'), 'utf8')).toContain(
        'access_token',
      );
      expectNoPassword(main, job);
    });

    it('the post step removes the session, and removes nothing else', async () => {
      const { job, main } = passing;
      const dir = main.state['session-dir']!;
      const after = await post(job, main);
      expect(after.code, after.stdout + after.stderr).toBe(0);
      expect(after.log).toContain('Logged out of profile default (removed from file)');
      expect(existsSync(dir)).toBe(false);
      expect(job.sessions()).toEqual([]);
      // Run again (the folder gone), and given a folder it did not make: nothing removed, the job not failed.
      const again = await post(job, main);
      expect(again.code).toBe(0);
      expect(again.log).toContain('already gone');
      const other = await step('post', job, {}, { 'STATE_session-dir': job.workspace });
      expect(other.code).toBe(0);
      expect(other.stdout).toMatch(/^::warning::cssctl: did not remove .*: it is not a session folder/m);
      expect(existsSync(join(job.workspace, 'results.sarif'))).toBe(true);
      const none = await step('post', job, {});
      expect(none.code).toBe(0);
      expect(none.log).toContain('no session to remove');
    });

    it('a failing gate (exit 10) fails the step with the line the CLI gives', async () => {
      const job = newJob();
      const main = await step(
        'main',
        job,
        inputs({ connection: 'prod', 'fail-on': 'high', sarif: 'results.sarif' }),
      );
      expect(main.code).toBe(1);
      expect(main.outputs).toMatchObject({ 'exit-code': '10', gate: 'failed', sarif: 'results.sarif' });
      const id = main.outputs['scan-id']!;
      // The same scan's gate, decided by the CLI: the step's error is its line.
      const cli = await w.run(['scans', 'wait', id, '--fail-on', 'high', '-q']);
      expect(cli.code).toBe(10);
      expect(`error: ${stepError(main)}`).toBe(errorLine(cli));
      expect(main.summary).toContain('❌ `--fail-on high` met');
      expect(existsSync(join(job.workspace, 'results.sarif'))).toBe(true);
      expectNoPassword(main, job);
      expect((await post(job, main)).code).toBe(0);
      expect(job.sessions()).toEqual([]);
    });

    it('a wrong password fails the step with exit 3, and the password is never shown', async () => {
      const job = newJob();
      const wrong = 'not-the-Password-1%';
      const logins = received(w.sandbox, '/auth/login', 'POST').length;
      const main = await step('main', job, { ...inputs({ connection: 'prod' }), password: wrong });
      expect(main.code).toBe(1);
      expect(main.outputs).toMatchObject({ 'exit-code': '3', gate: 'none', 'scan-id': '' });
      expect(received(w.sandbox, '/auth/login', 'POST')).toHaveLength(logins + 1);
      const cli = await runCli(
        ['login', '--base-url', w.url, '-w', 'acme', '--email', w.cred().email, '--password-stdin'],
        { ...w.env, CSSCTL_CREDENTIAL_STORE: 'file', CSSCTL_CONFIG_DIR: join(job.dir, 'cli') },
        { input: `${wrong}\n` },
      );
      expect(cli.code).toBe(3);
      // The same line but for the request id, which is each answer's own.
      const noRequest = (line: string) => line.replace(/, request req_\w+/, '');
      expect(noRequest(`error: ${stepError(main)}`)).toBe(noRequest(errorLine(cli)));
      // The mask came first, before anything else was printed.
      expect(main.stdout.split('\n')[0]).toBe('::add-mask::not-the-Password-1%25');
      expectNoPassword(main, job, wrong);
      expect((await post(job, main)).code).toBe(0);
      expect(job.sessions()).toEqual([]);
    });

    it("a scan that fails is exit 9: no gate, no report, the service's reason as the step error", async () => {
      const job = newJob();
      const main = await step(
        'main',
        job,
        inputs({ connection: 'legacy-fail', 'fail-on': 'high', sarif: 'results.sarif' }),
      );
      expect(main.code).toBe(1);
      expect(main.outputs).toMatchObject({ 'exit-code': '9', gate: 'none', sarif: '' });
      const id = main.outputs['scan-id']!;
      expect(stepError(main)).toBe(
        `scan ${id} failed: the provider rejected the credentials of connection "legacy-fail"`,
      );
      expect(existsSync(join(job.workspace, 'results.sarif'))).toBe(false);
      expect(main.summary).toContain('not decided: the scan failed');
      expect(errorLine(await w.run(['scans', 'wait', id, '--fail-on', 'high', '-q']))).toBe(
        `error: ${stepError(main)}`,
      );
    });

    it('scan-id instead of connection waits for that scan and creates none', async () => {
      const started = await w.run(['scans', 'create', '--connection', 'prod', '-o', 'json']);
      const id = (JSON.parse(started.stdout) as { scan_id: string }).scan_id;
      const creates = received(w.sandbox, '/scans', 'POST').length;
      const job = newJob();
      const main = await step('main', job, inputs({ 'scan-id': id }));
      expect(main.code, main.stdout + main.stderr).toBe(0);
      expect(main.outputs).toMatchObject({ 'scan-id': id, 'exit-code': '0', gate: 'none' });
      expect(received(w.sandbox, '/scans', 'POST')).toHaveLength(creates);
      expect(main.log).toContain(`cssctl scans wait ${id} -o github`);
    });

    it('inputs that do not fit are exit 2 before any request, naming the input', async () => {
      const job = newJob();
      const before = w.sandbox.requests.length;
      const both = await step('main', job, inputs({ connection: 'prod', 'scan-id': 'scn_1' }));
      expect(both.code).toBe(1);
      expect(both.outputs['exit-code']).toBe('2');
      expect(stepError(both)).toMatch(/^inputs connection and scan-id: give one, not both/);
      const severity = await step('main', job, inputs({ connection: 'prod', 'fail-on': 'severe' }));
      expect(stepError(severity)).toBe(
        'input fail-on: unknown severity "severe": use critical, high, medium, low, info',
      );
      expect(w.sandbox.requests.length).toBe(before);
      // No session folder is made for a step that stops at its inputs.
      expect(job.sessions()).toEqual([]);
    });

    it('a RUNNER_TEMP that cannot hold the session is one clear error, before any request', async () => {
      const job = newJob();
      const before = w.sandbox.requests.length;
      const missing = join(job.dir, 'no-such-folder');
      const main = await step('main', job, inputs({ connection: 'prod' }), { RUNNER_TEMP: missing });
      expect(main.code).toBe(1);
      expect(main.outputs['exit-code']).toBe('1');
      expect(stepError(main)).toBe(
        `could not make a folder for the session in ${missing} (RUNNER_TEMP): ENOENT`,
      );
      expect(w.sandbox.requests.length).toBe(before);
    });

    it('annotations: at most 10 per level, most severe first, then one notice for the rest', async () => {
      const job = newJob();
      const main = await step('main', job, inputs({ connection: 'prod', sarif: 'results.sarif' }));
      expect(main.code, main.log).toBe(0);
      const annotations = main.stdout.split('\n').filter((l) => /^::(error|warning|notice) title=/.test(l));
      const sarif = JSON.parse(readFileSync(join(job.workspace, 'results.sarif'), 'utf8')) as {
        runs: { results: { level: string }[] }[];
      };
      // The sandbox's scans find a varying number: the rule is checked whatever this one found (the unit tests of
      // src/action/annotations.ts hold the numbers fixed).
      const all = sarif.runs[0]!.results;
      const levels = ['error', 'warning', 'notice'] as const;
      const sarifLevel = { error: 'error', warning: 'warning', notice: 'note' } as const;
      let more = 0;
      for (const level of levels) {
        const shown = annotations.filter((l) => l.startsWith(`::${level} `)).length;
        const total = all.filter((r) => r.level === sarifLevel[level]).length;
        expect(shown, level).toBe(Math.min(10, total));
        more += total - shown;
      }
      // Most severe first: the critical ones lead the errors.
      const ranks = annotations.map((l) =>
        ['critical', 'high', 'medium', 'low', 'info'].indexOf(/::(\w+): /.exec(l)![1]!),
      );
      expect([...ranks].sort((a, b) => a - b)).toEqual(ranks);
      if (more > 0) {
        expect(main.stdout).toContain(
          `::notice::cssctl: ${more} more finding${more === 1 ? '' : 's'} not annotated (`,
        );
        expect(main.stdout).toContain('see the step summary and the reports (results.sarif)');
      } else expect(main.stdout).not.toContain('not annotated');
    });

    it('report folders that do not exist are made in the workspace; one outside it is refused before any request', async () => {
      const job = newJob();
      const main = await step(
        'main',
        job,
        inputs({ connection: 'prod-nocrit', sarif: 'out/scan/results.sarif' }),
        {
          GITHUB_WORKSPACE: job.workspace,
        },
      );
      expect(main.code, main.log).toBe(0);
      expect(main.outputs.sarif).toBe('out/scan/results.sarif');
      expect(existsSync(join(job.workspace, 'out/scan/results.sarif'))).toBe(true);
      const before = w.sandbox.requests.length;
      const outside = await step('main', job, inputs({ connection: 'prod', junit: '../reports/junit.xml' }), {
        GITHUB_WORKSPACE: job.workspace,
      });
      expect(outside.outputs['exit-code']).toBe('2');
      expect(stepError(outside)).toMatch(
        /^input junit: the folder of \.\.\/reports\/junit\.xml does not exist, and it is outside the workspace/,
      );
      expect(existsSync(join(job.dir, 'reports'))).toBe(false);
      expect(w.sandbox.requests.length).toBe(before);
    });

    it('a GITHUB_STATE that cannot be written: one clean error, no session folder, no request', async () => {
      const job = newJob();
      const folder = join(job.temp, 'state-is-a-folder');
      mkdirSync(folder);
      const before = w.sandbox.requests.length;
      const main = await step('main', job, inputs({ connection: 'prod' }), { GITHUB_STATE: folder });
      expect(main.code).toBe(1);
      expect(stepError(main)).toBe(
        `could not write the runner's state file ${folder} (GITHUB_STATE): EISDIR`,
      );
      expect(main.log).not.toMatch(/illegal operation|\n\s+at /);
      expect(job.sessions()).toEqual([]);
      expect(w.sandbox.requests.length).toBe(before);
    });

    it('the ocsf input: OCSF Detection Findings, one a line', async () => {
      const job = newJob();
      const main = await step(
        'main',
        job,
        inputs({ connection: 'prod-nocrit', ocsf: 'findings.ocsf.jsonl' }),
      );
      expect(main.code).toBe(0);
      expect(main.outputs.ocsf).toBe('findings.ocsf.jsonl');
      const events = readFileSync(join(job.workspace, 'findings.ocsf.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { class_uid: number; metadata: { version: string } });
      expect(events.length).toBeGreaterThan(0);
      for (const e of events) expect(e).toMatchObject({ class_uid: 2004, metadata: { version: '1.6.0' } });
    });
  });

  describe('the pull-request comment, against a fake GitHub API', () => {
    let gh: FakeGithub;
    beforeAll(async () => {
      gh = await FakeGithub.start();
    });
    afterAll(() => gh.close());

    /** The runner's environment of a pull_request event on acme/infra #12. */
    function prEnv(job: Job): Record<string, string> {
      const event = join(job.dir, 'event.json');
      writeFileSync(
        event,
        JSON.stringify({
          action: 'synchronize',
          number: 12,
          pull_request: { number: 12, head: { sha: 'c'.repeat(40) } },
        }),
      );
      return {
        GITHUB_EVENT_NAME: 'pull_request',
        GITHUB_EVENT_PATH: event,
        GITHUB_REPOSITORY: 'acme/infra',
        GITHUB_API_URL: gh.url,
        GITHUB_SERVER_URL: 'https://github.com',
        GITHUB_RUN_ID: '4242',
        GITHUB_WORKSPACE: job.workspace,
      };
    }

    it('two runs on one pull request: one POST, then one PATCH of the same comment', async () => {
      const token = 'ghs_e2eToken0123456789';
      const given = inputs({
        connection: 'prod',
        'fail-on': 'critical',
        'pr-comment': 'true',
        'github-token': token,
      });
      const job = newJob();
      const first = await step('main', job, given, prEnv(job));
      expect(first.outputs['exit-code'], first.log).toBe('10');
      expect(gh.requests.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`)).toEqual([
        'POST /repos/acme/infra/issues/12/comments',
      ]);
      const comment = gh.list(12)[0]!;
      expect(comment.body.split('\n')[0]).toBe('<!-- cssctl:prod -->');
      expect(comment.body).toContain(`scan \`${first.outputs['scan-id']}\``);
      expect(comment.body).toContain('Gate failed');
      expect(comment.body).toContain('[The run](https://github.com/acme/infra/actions/runs/4242)');
      expect((await post(job, first)).code).toBe(0);

      const job2 = newJob();
      const second = await step('main', job2, given, prEnv(job2));
      expect(gh.requests.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`)).toEqual([
        'POST /repos/acme/infra/issues/12/comments',
        `PATCH /repos/acme/infra/issues/comments/${comment.id}`,
      ]);
      expect(gh.list(12)).toHaveLength(1);
      expect(comment.body).toContain(`scan \`${second.outputs['scan-id']}\``);
      expect(second.outputs['scan-id']).not.toBe(first.outputs['scan-id']);
      expect(second.log).toContain(`updated the comment on pull request #12 (${comment.html_url})`);
      for (const s of [first, second]) expect(s.log).not.toContain(token);
      expect((await post(job2, second)).code).toBe(0);
    });

    it("a read-only token (403, a fork's pull request): a warning, and the step still passes", async () => {
      gh.readOnly = true;
      try {
        const job = newJob();
        const main = await step(
          'main',
          job,
          inputs({
            connection: 'prod-nocrit',
            'fail-on': 'critical',
            'pr-comment': 'true',
            'github-token': 'ghs_ro',
          }),
          prEnv(job),
        );
        expect(main.code, main.log).toBe(0);
        expect(main.outputs).toMatchObject({ 'exit-code': '0', gate: 'passed' });
        expect(main.stdout).toMatch(
          /^::warning::cssctl: could not write the comment on pull request #12: HTTP 403: Resource not accessible by integration/m,
        );
        expect(main.stdout).not.toMatch(/^::error::/m);
        expect((await post(job, main)).code).toBe(0);
      } finally {
        gh.readOnly = false;
      }
    });
  });

  describe("docs/ci.md's GitHub recipe", () => {
    const ci = readFileSync(join(ROOT, 'docs/ci.md'), 'utf8');
    const section = ci.slice(ci.indexOf('\n## GitHub Actions\n'));
    const yaml = /```yaml\n([\s\S]*?)```/.exec(section)![1]!;
    const job = (parseYaml(yaml) as { jobs: Record<string, { steps: Record<string, unknown>[] }> }).jobs;
    const steps = Object.values(job)[0]!.steps;
    const uses = steps.find((s) => String(s.uses).startsWith('cssctl/cssctl@'))!;

    it('uses only inputs and outputs action.yml declares', () => {
      expect(uses.id).toBe('scan');
      for (const name of Object.keys(uses.with as object))
        expect(actionYml.inputs, name).toHaveProperty([name]);
      const read = [...yaml.matchAll(/steps\.scan\.outputs\.([\w-]+)/g)].map((m) => m[1]!);
      expect(read.length).toBeGreaterThan(0);
      for (const name of read) expect(actionYml.outputs, name).toHaveProperty([name]);
    });

    it("runs as written (the service, user and secret the sandbox's), and writes the reports the next steps upload", async () => {
      const given = Object.fromEntries(
        Object.entries(uses.with as Record<string, unknown>).map(([k, v]) => [k, String(v)]),
      );
      expect(given.password).toBe('${{ secrets.CSSCTL_PASSWORD }}');
      const j = newJob();
      const main = await step('main', j, {
        ...given,
        'base-url': w.url,
        email: w.cred().email,
        password,
      });
      expect(['0', '10'], main.stdout + main.stderr).toContain(main.outputs['exit-code']);
      expect(main.outputs).toMatchObject({ sarif: given.sarif, junit: given.junit });
      const upload = steps.find((s) => String(s.uses).startsWith('github/codeql-action/upload-sarif'))!;
      expect((upload.with as { sarif_file: string }).sarif_file).toBe(main.outputs.sarif);
      expect(existsSync(join(j.workspace, main.outputs.sarif!))).toBe(true);
    });
  });

  describe('the action cancelled, or out of time', () => {
    let slow: World;
    beforeAll(async () => {
      slow = await World.start({ rateLimit: 100_000, scanRateLimit: 100_000, scanStepMs: 60_000 });
    });
    afterAll(() => slow.close());
    const slowInputs = (extra: Record<string, string>) => ({
      'base-url': slow.url,
      workspace: 'acme',
      email: slow.cred().email,
      password: slow.cred().password,
      ...extra,
    });

    it('a wait-timeout that passes is exit 9 with the resume line', async () => {
      const job = newJob();
      const main = await step(
        'main',
        job,
        slowInputs({ connection: 'prod', 'fail-on': 'high', 'wait-timeout': '0.5' }),
      );
      expect(main.code).toBe(1);
      expect(main.outputs).toMatchObject({ 'exit-code': '9', gate: 'none' });
      expect(stepError(main)).toMatch(
        /resume with: cssctl scans wait scn_\w+ --fail-on high --wait-timeout 0\.5 -o github$/,
      );
      expect(main.summary).toContain('the wait timed out');
    });

    it('the runner cancelling the step (SIGINT) stops the wait at once: exit 130, the resume line, outputs set', async () => {
      const job = newJob();
      const files = job.files();
      const env: Record<string, string | undefined> = {
        PATH: process.env.PATH,
        HOME: join(job.dir, 'home'),
        CI: 'true',
        GITHUB_ACTIONS: 'true',
        RUNNER_TEMP: job.temp,
        ...files,
        CSSCTL_POLL_BASE_MS: '50',
      };
      for (const [k, v] of Object.entries(slowInputs({ connection: 'prod' })))
        env[`INPUT_${k.toUpperCase()}`] = v;
      const child = spawn(process.execPath, [join(actionDir, actionYml.runs.main)], {
        cwd: job.workspace,
        env: env as NodeJS.ProcessEnv,
      });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
      child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
      let sent = false;
      const code = await new Promise<number | null>((resolve) => {
        child.stderr.on('data', () => {
          if (sent || !stderr.includes('Started scan')) return;
          sent = true;
          setTimeout(() => child.kill('SIGINT'), 200);
        });
        child.on('close', resolve);
      });
      expect({ code, stdout, stderr }).toMatchObject({ code: 1 });
      expect(stdout).toMatch(/^::error::interrupted; resume with: cssctl scans wait scn_\w+ -o github$/m);
      const outputs = parseFileCommands(readFileSync(files.GITHUB_OUTPUT, 'utf8'));
      expect(outputs['exit-code']).toBe('130');
      // The scan was created before the cancel: its id is set, the one the resume line names.
      const resumed = /resume with: cssctl scans wait (scn_\w+)/.exec(stdout)![1];
      expect(outputs['scan-id']).toBe(resumed);
    });
  });
});
