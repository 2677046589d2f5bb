// The Action's main step through a fake world (src/action/main.ts runMain): the runner's files in a temporary
// folder, a routed transport in place of the service, and no process, socket or build. What reaches the outputs,
// the log and the runner's files when the service says what it must not, when a runner file cannot be written,
// when a report's folder is missing, and the annotations GitHub would show.
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
  existsSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runMain } from '../../src/action/main.js';
import type { HttpRequest, HttpResponse } from '../../src/core/http/types.js';
import { Collect } from '../helpers/streams.js';
import { FakeGithub } from '../helpers/fake-github.js';
import { startConnectProxy } from '../e2e/connect-proxy.js';
import { parseFileCommands } from '../helpers/runner-files.js';
import { findingOf, scanOf } from '../helpers/verb.js';

let dir: string;
let temp: string;
let workspace: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cssctl-action-main-'));
  temp = join(dir, 'runner-temp');
  workspace = join(dir, 'workspace');
  mkdirSync(temp);
  mkdirSync(workspace);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

type Route = (req: HttpRequest, url: URL) => Partial<HttpResponse> | undefined;

const json = (body: unknown, status = 200): Partial<HttpResponse> => ({
  status,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

/** The service: a login, a created scan that is already final, and its findings; `over` answers first. */
function service(o: { scan?: Record<string, unknown>; findings?: unknown[]; over?: Route } = {}) {
  const sent: string[] = [];
  const scan = scanOf(o.scan);
  const findings = o.findings ?? [findingOf('f1', 'high')];
  const send = async (req: HttpRequest): Promise<HttpResponse> => {
    const url = new URL(req.url);
    sent.push(`${req.method} ${url.pathname}${url.search}`);
    const r =
      o.over?.(req, url) ??
      (url.pathname === '/api/v1/auth/login'
        ? json({ access_token: 'tok-a', refresh_token: 'tok-r', token_type: 'bearer', expires_in: 3600 })
        : url.pathname === '/api/v1/scans' && req.method === 'POST'
          ? json(scan, 201)
          : url.pathname.startsWith('/api/v1/scans/')
            ? json(scan)
            : url.pathname === '/api/v1/findings'
              ? json({
                  findings: findings.slice(
                    Number(url.searchParams.get('offset') ?? 0),
                    Number(url.searchParams.get('offset') ?? 0) +
                      Number(url.searchParams.get('limit') ?? 100),
                  ),
                  total: findings.length,
                })
              : json({ detail: 'not here' }, 404));
    return { status: r.status ?? 200, headers: r.headers ?? {}, body: r.body ?? '{}' };
  };
  return { send, sent };
}

interface Run {
  code: number;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  state: string;
  sessions: string[];
}

/** One main step with these inputs (connection prod unless given) against `svc`. */
async function step(
  inputs: Record<string, string>,
  svc = service(),
  files: Partial<Record<'GITHUB_OUTPUT' | 'GITHUB_STATE' | 'GITHUB_STEP_SUMMARY', string>> = {},
  extraEnv: Record<string, string> = {},
  signal?: AbortSignal,
): Promise<Run> {
  const f = {
    GITHUB_OUTPUT: join(temp, 'output'),
    GITHUB_STATE: join(temp, 'state'),
    GITHUB_STEP_SUMMARY: join(temp, 'summary'),
    ...files,
  };
  for (const p of Object.values(f)) if (!existsSync(p) && existsSync(dirname(p))) writeFileSync(p, '');
  const env: NodeJS.ProcessEnv = {
    GITHUB_ACTIONS: 'true',
    RUNNER_TEMP: temp,
    GITHUB_WORKSPACE: workspace,
    CSSCTL_POLL_BASE_MS: '0',
    ...f,
    ...extraEnv,
  };
  const all = {
    'base-url': 'http://127.0.0.1:1',
    workspace: 'acme',
    email: 'ci@acme.test',
    password: 'hunter2',
    connection: 'prod',
    ...inputs,
  };
  for (const [k, v] of Object.entries(all)) env[`INPUT_${k.toUpperCase()}`] = v;
  const stdout = new Collect();
  const stderr = new Collect();
  const code = await runMain({ env, stdout, stderr, transport: svc.send, signal });
  let outputs: Record<string, string> = {};
  let state = '';
  try {
    outputs = parseFileCommands(readFileSync(f.GITHUB_OUTPUT, 'utf8'));
    state = readFileSync(f.GITHUB_STATE, 'utf8');
  } catch {
    // a folder in the file's place
  }
  return {
    code,
    stdout: stdout.text,
    stderr: stderr.text,
    outputs,
    state,
    sessions: readdirSync(temp).filter((n) => n.startsWith('cssctl-action-')),
  };
}

/** Lines of the log that the runner would take as workflow commands. */
const commands = (r: Run) =>
  `${r.stdout}${r.stderr}`.split('\n').filter((l) => /^::[a-z-]+( [^:]*)?::/.test(l));

describe('outputs from the service are checked before they are set (issue 33 #6)', () => {
  it('a scan id with a line break and a workflow command is not set, and the warning injects nothing', async () => {
    const evil = 'scn_1\n::error::INJECTED';
    const r = await step({}, service({ scan: { scan_id: evil } }));
    expect(r.outputs['scan-id']).toBe('');
    expect(r.state).not.toContain('INJECTED');
    const lines = commands(r);
    expect(lines.filter((l) => l.startsWith('::error::INJECTED'))).toEqual([]);
    const warning = lines.find((l) => l.startsWith('::warning::') && l.includes('scan id'));
    expect(warning).toMatch(/the scan-id output is left empty/);
    // Every line of the log is one command or plain text: no raw value starts a line of its own.
    expect(`${r.stdout}${r.stderr}`).not.toMatch(/^::error::INJECTED/m);
  });

  it.each([
    ['a space', 'scn 1'],
    ['a shell substitution', 'scn_$(id)'],
    ['too long', `scn_${'a'.repeat(130)}`],
    ['empty', ''],
    ['not ASCII', 'scn_é'],
  ])('a scan id that is %s is not set', async (_what, id) => {
    const r = await step({}, service({ scan: { scan_id: id } }));
    expect(r.outputs['scan-id']).toBe('');
    expect(commands(r).some((l) => l.startsWith('::warning::cssctl: the scan id'))).toBe(true);
  });

  it('an id of the allowed characters (up to 128) is set as it is', async () => {
    const id = `scn.A-z_0:9${'x'.repeat(117)}`;
    expect(id).toHaveLength(128);
    const r = await step({}, service({ scan: { scan_id: id } }));
    expect(r.outputs['scan-id']).toBe(id);
  });

  it('a count that is not a whole number is not set; the others are', async () => {
    // No ignore file, no baseline, no report: the counts are the scan's own.
    const r = await step(
      {},
      service({
        scan: { critical_count: '1\n::error::x', high_count: 2.5, medium_count: 3, total_findings: 6 },
      }),
    );
    expect(r.outputs.medium).toBe('3');
    for (const s of ['critical', 'high']) expect(r.outputs[s], s).not.toMatch(/\S/);
    expect(`${r.stdout}${r.stderr}`).not.toMatch(/^::error::x/m);
  });
});

describe('a cancelled step still sets scan-id (issue 33 #7)', () => {
  it('exit 130 once the scan was created: scan-id is the created scan', async () => {
    const controller = new AbortController();
    const svc = service({
      scan: { status: 'running' },
      over: (req, url) => {
        if (url.pathname.startsWith('/api/v1/scans/')) controller.abort();
        return undefined;
      },
    });
    const r = await step({}, svc, {}, {}, controller.signal);
    expect(r.code).toBe(1);
    expect(r.outputs['exit-code']).toBe('130');
    expect(r.outputs['scan-id']).toBe('scn_1');
    expect(r.stdout).toMatch(/^::error::interrupted; resume with: cssctl scans wait scn_1 -o github$/m);
  });

  it('cancelled before the scan was created: scan-id stays empty', async () => {
    const controller = new AbortController();
    const svc = service({
      over: (req, url) => {
        if (url.pathname === '/api/v1/scans' && req.method === 'POST') {
          controller.abort();
          return json({ detail: 'gone' }, 503);
        }
        return undefined;
      },
    });
    const r = await step({}, svc, {}, { CSSCTL_RETRY_BASE_MS: '0' }, controller.signal);
    expect(r.outputs['exit-code']).toBe('130');
    expect(r.outputs['scan-id']).toBe('');
  });
});

describe('runner files that cannot be written (issue 33 #8)', () => {
  it('a GITHUB_STATE that is a folder: one clean error, no session folder left, no request sent', async () => {
    const folder = join(temp, 'state-folder');
    mkdirSync(folder);
    const svc = service();
    const r = await step({}, svc, { GITHUB_STATE: folder });
    expect(r.code).toBe(1);
    expect(r.outputs['exit-code']).toBe('1');
    const errors = commands(r).filter((l) => l.startsWith('::error::'));
    expect(errors).toEqual([
      `::error::could not write the runner's state file ${folder} (GITHUB_STATE): EISDIR`,
    ]);
    expect(`${r.stdout}${r.stderr}`).not.toMatch(/illegal operation|at [\w.]+ \(/);
    expect(r.sessions).toEqual([]);
    expect(svc.sent).toEqual([]);
  });

  it('a GITHUB_STATE in a folder that does not exist: the same, ENOENT', async () => {
    const missing = join(temp, 'nope', 'state');
    const r = await step({}, service(), { GITHUB_STATE: missing });
    expect(commands(r).filter((l) => l.startsWith('::error::'))).toEqual([
      `::error::could not write the runner's state file ${missing} (GITHUB_STATE): ENOENT`,
    ]);
    expect(r.sessions).toEqual([]);
  });

  it('a GITHUB_STEP_SUMMARY that is a folder: a warning, and the step keeps its verdict', async () => {
    const folder = join(temp, 'summary-folder');
    mkdirSync(folder);
    const r = await step({}, service(), { GITHUB_STEP_SUMMARY: folder });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.outputs['exit-code']).toBe('0');
    expect(`${r.stdout}${r.stderr}`).not.toMatch(/illegal operation|at [\w.]+ \(/);
    expect(r.stderr).toMatch(/summary-folder/);
  });

  it('a GITHUB_OUTPUT that is a folder: one clean error line on stderr', async () => {
    const folder = join(temp, 'output-folder');
    mkdirSync(folder);
    const r = await step({}, service(), { GITHUB_OUTPUT: folder });
    expect(r.code).toBe(1);
    expect(r.stderr.split('\n').filter((l) => l.startsWith('::'))).toEqual([
      `::error::could not write the step's outputs to ${folder} (GITHUB_OUTPUT): EISDIR`,
    ]);
    expect(r.stderr).not.toMatch(/illegal operation|at [\w.]+ \(/);
  });
});

describe('report folders (issue 33 #9)', () => {
  it('a report in folders that do not exist yet: they are made in the workspace and the report written', async () => {
    const r = await step({
      sarif: join(workspace, 'out/deep/results.sarif'),
      junit: join(workspace, 'junit.xml'),
    });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.outputs.sarif).toBe(join(workspace, 'out/deep/results.sarif'));
    expect(JSON.parse(readFileSync(join(workspace, 'out/deep/results.sarif'), 'utf8'))).toMatchObject({
      version: '2.1.0',
    });
  });

  it('a failed scan writes no report, and the folders made for it do not stay', async () => {
    const r = await step(
      { sarif: join(workspace, 'out/results.sarif') },
      service({ scan: { status: 'failed', error: 'no' } }),
    );
    expect(r.outputs['exit-code']).toBe('9');
    expect(existsSync(join(workspace, 'out'))).toBe(false);
  });

  it('a path whose missing folder is outside the workspace is refused before any request, naming the input', async () => {
    const svc = service();
    const r = await step({ junit: join(workspace, '../elsewhere/junit.xml') }, svc);
    expect(r.outputs['exit-code']).toBe('2');
    expect(commands(r).filter((l) => l.startsWith('::error::'))[0]).toMatch(
      /^::error::input junit: the folder of .*elsewhere\/junit\.xml does not exist, and it is outside the workspace/,
    );
    expect(existsSync(join(dir, 'elsewhere'))).toBe(false);
    expect(svc.sent).toEqual([]);
  });

  it('a symlink in the workspace that leads out does not let the action make folders outside', async () => {
    const outside = join(dir, 'outside');
    mkdirSync(outside);
    symlinkSync(outside, join(workspace, 'link'));
    const r = await step({ html: join(workspace, 'link/sub/report.html') });
    expect(r.outputs['exit-code']).toBe('2');
    expect(existsSync(join(outside, 'sub'))).toBe(false);
  });

  it('a path outside the workspace in a folder that exists is written, as the CLI would', async () => {
    const r = await step({ sarif: join(temp, 'results.sarif') });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.outputs.sarif).toBe(join(temp, 'results.sarif'));
  });
});

describe('annotations: at most 10 per level, most severe first, then one notice (issue 37 #4)', () => {
  const many = [
    ...Array.from({ length: 14 }, (_, i) => findingOf(`h${i}`, 'high')),
    ...Array.from({ length: 3 }, (_, i) => findingOf(`c${i}`, 'critical')),
    ...Array.from({ length: 12 }, (_, i) => findingOf(`m${i}`, 'medium')),
    ...Array.from({ length: 4 }, (_, i) => findingOf(`l${i}`, 'low')),
  ];

  it('33 findings: 10 errors (the 3 critical first), 10 warnings, 4 notices, one notice for the 9 others', async () => {
    const r = await step({}, service({ findings: many, scan: { total_findings: many.length } }));
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const lines = commands(r).filter((l) => /^::(error|warning|notice) title=/.test(l));
    const errors = lines.filter((l) => l.startsWith('::error'));
    expect(errors).toHaveLength(10);
    expect(errors.slice(0, 3).every((l) => l.includes('::critical: '))).toBe(true);
    expect(errors.slice(3).map((l) => /finding (h\d+)/.exec(l)![1])).toEqual([
      'h0',
      'h1',
      'h2',
      'h3',
      'h4',
      'h5',
      'h6',
    ]);
    expect(lines.filter((l) => l.startsWith('::warning'))).toHaveLength(10);
    expect(lines.filter((l) => l.startsWith('::notice'))).toHaveLength(4);
    const more = commands(r).filter((l) => l.startsWith('::notice::cssctl: '));
    expect(more).toEqual([
      '::notice::cssctl: 9 more findings not annotated (7 errors, 2 warnings; GitHub shows 10 annotations per level): see the step summary',
    ]);
  });

  it('as many as GitHub shows: every one annotated, no notice', async () => {
    const r = await step({}, service({ findings: many.slice(0, 10) }));
    expect(commands(r).filter((l) => l.startsWith('::error title='))).toHaveLength(10);
    expect(commands(r).some((l) => l.includes('not annotated'))).toBe(false);
  });

  it('the notice names the reports, which hold every finding', async () => {
    const sarif = join(workspace, 'r.sarif');
    const r = await step({ sarif }, service({ findings: many }));
    expect(commands(r).find((l) => l.includes('not annotated'))).toContain(
      `see the step summary and the reports (${sarif})`,
    );
    const results = (JSON.parse(readFileSync(sarif, 'utf8')) as { runs: { results: unknown[] }[] }).runs[0]!
      .results;
    expect(results).toHaveLength(many.length);
  });

  it('without a step summary, the notice names only the reports', async () => {
    const sarif = join(workspace, 'r.sarif');
    const r = await step({ sarif, args: '--no-step-summary' }, service({ findings: many }));
    expect(commands(r).find((l) => l.includes('not annotated'))).toMatch(
      / per level\): see the reports \(.*r\.sarif\)$/,
    );
  });

  it('a scan that failed is not annotated', async () => {
    const r = await step({}, service({ scan: { status: 'failed' } }));
    expect(commands(r).filter((l) => / title=/.test(l))).toEqual([]);
  });
});

describe('the ignore-file and args inputs (issue 37 #4)', () => {
  it('ignore-file: its accepted risk is left out of the annotations and the counts', async () => {
    const file = join(workspace, 'accepted.yaml');
    writeFileSync(
      file,
      'version: 1\nignore:\n  - rule: s3-public\n    reason: accepted by the team\n    expires: never\n',
    );
    const r = await step(
      { 'ignore-file': file },
      service({ findings: [findingOf('f1', 'high', { rule_id: 's3-public' }), findingOf('f2', 'medium')] }),
    );
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stderr).toContain(`--ignore-file ${file}`);
    expect(r.outputs).toMatchObject({ high: '0', medium: '1' });
    expect(commands(r).filter((l) => / title=/.test(l))).toHaveLength(1);
  });

  it('args: its flags reach the scan (--severity narrows the report, never the gate)', async () => {
    const sarif = join(workspace, 'r.sarif');
    const r = await step(
      { sarif, 'fail-on': 'medium', args: '--severity high   --no-step-summary' },
      service({ findings: [findingOf('f1', 'high'), findingOf('f2', 'medium')] }),
    );
    expect(r.outputs['exit-code']).toBe('10');
    const results = (JSON.parse(readFileSync(sarif, 'utf8')) as { runs: { results: unknown[] }[] }).runs[0]!
      .results;
    expect(results).toHaveLength(1);
    expect(readFileSync(join(temp, 'summary'), 'utf8')).toBe('');
    expect(r.stderr).toContain('--severity high --no-step-summary');
  });

  it('args that a shell would run are words, never run', async () => {
    const r = await step({ args: `--report "csv=${workspace}/$(touch pwned).csv" --show-ignored` });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(readdirSync(workspace)).toEqual(['$(touch pwned).csv']);
    expect(existsSync(join(process.cwd(), 'pwned'))).toBe(false);
  });
});

describe('the pull-request comment (issue 37 #4)', () => {
  let gh: FakeGithub;
  beforeEach(async () => {
    gh = await FakeGithub.start();
  });
  afterEach(() => gh.close());

  function prEnv(event = 'pull_request'): Record<string, string> {
    const path = join(dir, 'event.json');
    writeFileSync(
      path,
      JSON.stringify({ number: 7, pull_request: { number: 7, head: { sha: 'b'.repeat(40) } } }),
    );
    return {
      GITHUB_EVENT_NAME: event,
      GITHUB_EVENT_PATH: path,
      GITHUB_REPOSITORY: 'acme/infra',
      GITHUB_API_URL: gh.url,
      GITHUB_SERVER_URL: 'https://github.com',
      GITHUB_RUN_ID: '99',
    };
  }
  const pr = { 'pr-comment': 'true', 'github-token': 'ghs_secretToken123', 'fail-on': 'critical' };

  it('two runs keep one comment: found past the first page of comments, created, then edited in place', async () => {
    for (let i = 0; i < 100; i++) gh.seed(7, `comment ${i}`);
    // Someone quoting the marker is not the action's comment, nor is one that starts with it but a person wrote.
    gh.seed(7, 'I saw this:\n<!-- cssctl:prod -->\nin the last one');
    const spoof = gh.seed(7, '<!-- cssctl:prod -->\nall clear, merge it');
    const first = await step(pr, service(), {}, prEnv());
    expect(first.outputs['exit-code']).toBe('10');
    const posts = gh.requests.filter((r) => r.method === 'POST');
    expect(posts).toHaveLength(1);
    expect(posts[0]!.path).toBe('/repos/acme/infra/issues/7/comments');
    expect(posts[0]!.authorization).toBe('token ghs_secretToken123');
    const mine = gh.list(7).at(-1)!;
    expect(mine.body.startsWith('<!-- cssctl:prod -->\n')).toBe(true);
    expect(mine.body).toContain('Gate failed');
    expect(mine.body).toContain('[The run](https://github.com/acme/infra/actions/runs/99)');
    expect(first.stderr).toContain(`created the comment on pull request #7 (${mine.html_url})`);

    const second = await step(
      { ...pr, 'fail-on': 'high' },
      service({ scan: { critical_count: 0, high_count: 0, total_findings: 0 }, findings: [] }),
      {},
      prEnv(),
    );
    expect(second.code, second.stdout + second.stderr).toBe(0);
    expect(gh.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
    const patches = gh.requests.filter((r) => r.method === 'PATCH');
    expect(patches.map((r) => r.path)).toEqual([`/repos/acme/infra/issues/comments/${mine.id}`]);
    expect(gh.list(7)).toHaveLength(103);
    expect(mine.body).toContain('Gate passed');
    expect(spoof.body).toBe('<!-- cssctl:prod -->\nall clear, merge it');
    // The token is masked and never printed.
    for (const r of [first, second]) {
      const log = (r.stdout + r.stderr).replace(/^::add-mask::.*$/gm, '');
      expect(log).not.toContain('ghs_secretToken123');
      expect(r.stdout).toContain('::add-mask::ghs_secretToken123');
    }
  });

  it("with a user's token, the comment that user wrote is the one edited", async () => {
    const mine = gh.seed(7, '<!-- cssctl:prod -->\nold', 'user-ghp_pers', 'User');
    gh.seed(7, '<!-- cssctl:prod -->\nsomeone else', 'mallory', 'User');
    const r = await step({ ...pr, 'github-token': 'ghp_personal' }, service(), {}, prEnv());
    expect(r.stderr).toContain('updated the comment on pull request #7');
    expect(gh.requests.filter((x) => x.method === 'PATCH').map((x) => x.path)).toEqual([
      `/repos/acme/infra/issues/comments/${mine.id}`,
    ]);
  });

  it('with a baseline: new, fixed and unchanged, and each listed finding with its state', async () => {
    const base = join(workspace, 'base.json');
    writeFileSync(base, JSON.stringify([findingOf('f1', 'high'), findingOf('gone', 'medium')]));
    const r = await step(
      { ...pr, baseline: base, 'fail-on': 'high' },
      service({ findings: [findingOf('f1', 'high'), findingOf('f2', 'critical')] }),
      {},
      prEnv(),
    );
    expect(r.outputs['exit-code']).toBe('10');
    const body = gh.list(7).at(-1)!.body;
    expect(body).toContain('Against the baseline: **1 new**, 0 raised or changed, **1 fixed**, 1 unchanged.');
    expect(body).toContain('| critical | Title f2 | arn:aws:s3:::f2 | new |');
    expect(body).toContain('| high | Title f1 | arn:aws:s3:::f1 | unchanged |');
    expect(body).not.toContain('gone');
  });

  it('a read-only token (403): a warning, and the step keeps its own verdict', async () => {
    gh.readOnly = true;
    const r = await step({ ...pr, 'fail-on': '' }, service(), {}, prEnv());
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.outputs['exit-code']).toBe('0');
    const warning = commands(r).find((l) => l.startsWith('::warning::cssctl: could not write the comment'));
    expect(warning).toMatch(/HTTP 403: Resource not accessible by integration/);
    expect(warning).toContain('pull-requests: write');
  });

  it('behind a proxy (HTTPS_PROXY/HTTP_PROXY): the comment goes through it; NO_PROXY is respected', async () => {
    const tunnels: string[] = [];
    const proxy = await startConnectProxy(tunnels);
    try {
      const { port } = proxy.address() as { port: number };
      const ghHost = new URL(gh.url).host;
      const via = { HTTP_PROXY: `http://127.0.0.1:${port}`, HTTPS_PROXY: `http://127.0.0.1:${port}` };
      const r = await step(pr, service(), {}, { ...prEnv(), ...via });
      expect(r.stderr).toContain('created the comment on pull request #7');
      expect(tunnels.length).toBeGreaterThan(0);
      expect(new Set(tunnels)).toEqual(new Set([ghHost]));
      tunnels.length = 0;
      const direct = await step(pr, service(), {}, { ...prEnv(), ...via, no_proxy: '127.0.0.1' });
      expect(direct.stderr).toContain('updated the comment on pull request #7');
      expect(tunnels).toEqual([]);
    } finally {
      proxy.close();
    }
  });

  it('a GitHub that cannot be reached: a warning too', async () => {
    await gh.close();
    const r = await step({ ...pr, 'fail-on': '' }, service(), {}, prEnv());
    expect(r.code).toBe(0);
    expect(commands(r).some((l) => l.startsWith('::warning::cssctl: could not write the comment'))).toBe(
      true,
    );
  });

  it('not a pull request: a notice and no request; without a token: exit 2 before any request', async () => {
    const push = await step(pr, service(), {}, prEnv('push'));
    expect(push.stderr).toContain('no pull request comment: not a pull request (the event is "push")');
    expect(gh.requests).toEqual([]);
    const svc = service();
    const none = await step({ 'pr-comment': 'true', 'github-token': '' }, svc, {}, prEnv());
    expect(none.outputs['exit-code']).toBe('2');
    expect(commands(none).find((l) => l.startsWith('::error::'))).toMatch(
      /^::error::input github-token: required with pr-comment: true/,
    );
    expect(svc.sent).toEqual([]);
    const bad = await step({ 'pr-comment': 'yes' }, service(), {}, prEnv());
    expect(commands(bad).find((l) => l.startsWith('::error::'))).toBe(
      '::error::input pr-comment: "yes" is not true or false',
    );
  });

  it('a failed login still says so in the comment, rather than leave the last verdict standing', async () => {
    const r = await step(
      pr,
      service({
        over: (req, url) =>
          url.pathname === '/api/v1/auth/login' ? json({ detail: 'bad password' }, 401) : undefined,
      }),
      {},
      prEnv(),
    );
    expect(r.outputs['exit-code']).toBe('3');
    expect(gh.list(7).at(-1)!.body).toMatch(/⚠️[\s\S]*cssctl could not scan: bad password/);
  });
});
