// argv → what a verb's run function is given, through the real command tree (as gh tests its commands' flags):
// every verb's options and positional arguments, parsed by commander with each option's own parser, captured
// where the terminal would call the verb (no verb module is loaded, no request sent). A parser removed, a flag
// renamed or its value no longer converted fails here.
import { PassThrough } from 'node:stream';
import { CommanderError, type Command } from 'commander';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { joinPairs, tokenize } from '../../bin/argv.cjs';
import { buildProgram, main } from '../../src/cli.js';
import { commandPath, type Wire } from '../../src/commands/shared/action.js';
import { handOver, type ArgsOf, type OptionsOf } from '../../src/commands/shared/define.js';
import { loginCommand } from '../../src/commands/auth/login.command.js';
import { setCommand } from '../../src/commands/config/config.command.js';
import { listCommand as findingsList } from '../../src/commands/findings/list.command.js';
import { ignoreCommand } from '../../src/commands/findings/ignore.command.js';
import { summaryCommand } from '../../src/commands/findings/summary.command.js';
import { replayCommand } from '../../src/commands/webhooks/replay.command.js';
import { completionCommand } from '../../src/commands/completion/completion.command.js';
import type { Severity } from '../../src/api/findings-types.js';
import type { ReportSpec } from '../../src/report/report-spec.js';
import type { SummaryBy } from '../../src/report/summary-view.js';
import { IO } from '../../src/core/io.js';
import { Collect } from '../helpers/streams.js';

interface Given {
  command: string;
  opts: Record<string, unknown>;
  args: string[];
}

/** Runs argv through the command tree; what the command's verb would have been given. */
async function given(argv: string[]): Promise<Given> {
  let got: Given | undefined;
  const capture = (...params: unknown[]) => {
    const cmd = params[params.length - 1] as Command;
    got = { command: commandPath(cmd), ...handOver(cmd) };
    return Promise.resolve();
  };
  const wire = Object.assign(() => capture, { frontEnd: () => capture }) as Wire;
  const io = new IO({ stdin: new PassThrough(), stdout: new Collect(), stderr: new Collect() }, { env: {} });
  const program = buildProgram(
    io,
    () => {
      throw new Error('no context is made here');
    },
    {},
    argv,
    undefined,
    wire,
  );
  const paired = joinPairs(argv);
  await program.parseAsync(paired.argv ?? [], { from: 'user' });
  if (!got) throw new Error(`no verb ran for ${argv.join(' ')}`);
  return got;
}

/** The usage error commander gives for argv (exit 2 in the terminal). */
async function rejected(argv: string[]): Promise<string> {
  try {
    await given(argv);
  } catch (err) {
    if (err instanceof CommanderError) return err.message;
    throw err;
  }
  throw new Error(`${argv.join(' ')} was accepted`);
}

const REPORT = (format: string, path: string) => ({ format, path });

/** [argv, the options the verb gets, its positional arguments]. At least one row for every verb. */
const ROWS: [argv: string[], opts: Record<string, unknown>, args?: string[]][] = [
  // auth
  [['login'], {}],
  [
    ['login', '--email', 'a@example.test', '--password-stdin'],
    { email: 'a@example.test', passwordStdin: true },
  ],
  [['logout'], {}],
  [['auth', 'status'], {}],
  [['auth', 'token'], {}],
  [['auth', 'refresh'], {}],
  [['auth', 'switch', 'ci'], {}, ['ci']],
  // connections
  [['connections', 'list'], {}],
  [
    ['connections', 'list', '--limit', '5', '--offset', '10', '--all', '--columns', 'id,alias'],
    { limit: 5, offset: 10, all: true, columns: 'id,alias' },
  ],
  [['connections', 'list', '--offset', '0'], { offset: 0 }],
  [
    ['connections', 'create', '--alias', 'prod', '--provider', 'aws'],
    { alias: 'prod', provider: 'aws', set: [] },
  ],
  [
    ['connections', 'create', '--alias', 'p', '--provider', 'gcp', '--set', 'a=1', '--set', 'b:=2'],
    { alias: 'p', provider: 'gcp', set: ['a=1', 'b:=2'] },
  ],
  // scans
  [['scans', 'create', '--connection', 'prod'], { connection: 'prod', ignore: true, stepSummary: true }],
  [
    [
      'scans',
      'create',
      '--connection',
      'prod',
      '--wait',
      '--fail-on',
      'HIGH',
      '--wait-timeout',
      '90',
      '--severity',
      'low,critical',
      '--report',
      'sarif=out.sarif',
      '--report',
      'junit=out.xml',
      '--output-file',
      'scan.json',
      '--ignore-file',
      'ig.yaml',
      '--show-ignored',
      '--no-step-summary',
      '--baseline',
      'latest',
    ],
    {
      connection: 'prod',
      wait: true,
      failOn: 'high',
      waitTimeout: 90,
      severity: ['critical', 'low'],
      report: [REPORT('sarif', 'out.sarif'), REPORT('junit', 'out.xml')],
      outputFile: 'scan.json',
      ignoreFile: 'ig.yaml',
      ignore: true,
      showIgnored: true,
      stepSummary: false,
      baseline: 'latest',
    },
  ],
  [
    ['scans', 'create', '--connection', 'prod', '--no-ignore'],
    { connection: 'prod', ignore: false, stepSummary: true },
  ],
  [['scans', 'list'], {}],
  [
    [
      'scans',
      'list',
      '--status',
      'running',
      '--connection',
      'a, b',
      '--connection',
      'c,a',
      '--limit',
      '3',
      '--all',
    ],
    { status: 'running', connection: ['a', 'b', 'c'], limit: 3, all: true },
  ],
  [['scans', 'get', 'scn_1'], {}, ['scn_1']],
  [['scans', 'wait', 'scn_1'], { ignore: true, stepSummary: true }, ['scn_1']],
  [
    ['scans', 'wait', 'scn_2', '--wait-timeout', '1.5', '--fail-on', 'critical', '--severity', 'info'],
    { waitTimeout: 1.5, failOn: 'critical', severity: ['info'], ignore: true, stepSummary: true },
    ['scn_2'],
  ],
  // findings
  [['findings', 'list'], { ignore: true }],
  [
    ['findings', 'list', '--severity', 'high,critical', '--limit', '5'],
    { severity: ['critical', 'high'], limit: 5, ignore: true },
  ],
  [
    [
      'findings',
      'list',
      '--severity',
      'Low',
      '--severity',
      'medium,low',
      '--scan',
      'scn_1',
      '--status',
      'open',
      '--connection',
      'prod',
      '--show-ignored',
      '--no-ignore',
      '--all',
      '--columns',
      'all',
      '--report',
      'ocsf=f.json',
      '--output-file',
      'out.sarif',
      '--ignore-file',
      'x.yaml',
      '--offset',
      '7',
    ],
    {
      severity: ['medium', 'low'],
      scan: 'scn_1',
      status: ['open'],
      connection: ['prod'],
      showIgnored: true,
      ignore: false,
      all: true,
      columns: 'all',
      report: [REPORT('ocsf', 'f.json')],
      outputFile: 'out.sarif',
      ignoreFile: 'x.yaml',
      offset: 7,
    },
  ],
  [['findings', 'summary'], { ignore: true }],
  [
    [
      'findings',
      'summary',
      '--by',
      'rule',
      '--scan',
      'scn_1',
      '--severity',
      'INFO',
      '--ignore-file',
      'i.yaml',
      '--no-ignore',
      '--status',
      'open,closed',
      '--connection',
      'prod',
    ],
    {
      by: 'rule',
      scan: 'scn_1',
      severity: ['info'],
      ignoreFile: 'i.yaml',
      ignore: false,
      status: ['open', 'closed'],
      connection: ['prod'],
    },
  ],
  [
    ['findings', 'diff', '--base', 'latest', '--head', 'scn_2'],
    { base: 'latest', head: 'scn_2', ignore: true },
  ],
  [
    [
      'findings',
      'diff',
      '--base',
      'a.json',
      '--head',
      'b.json',
      '--state',
      'NEW,fixed',
      '--state',
      'new',
      '--fail-on',
      'Medium',
      '--severity',
      'critical',
      '--show-ignored',
      '--report',
      'junit=d.xml',
      '--status',
      'open',
    ],
    {
      base: 'a.json',
      head: 'b.json',
      state: ['new', 'fixed'],
      failOn: 'medium',
      severity: ['critical'],
      showIgnored: true,
      ignore: true,
      report: [REPORT('junit', 'd.xml')],
      status: ['open'],
    },
  ],
  [
    [
      'findings',
      'ignore',
      'fnd_1',
      'fnd_2',
      '--reason',
      'accepted',
      '--expires',
      '30d',
      '--ignore-file',
      'i.yaml',
    ],
    { reason: 'accepted', expires: '30d', ignoreFile: 'i.yaml' },
    ['fnd_1', 'fnd_2'],
  ],
  [['findings', 'ignore', 'fnd_1'], {}, ['fnd_1']],
  [['findings', 'get', 'fnd_1'], {}, ['fnd_1']],
  // compliance
  [['compliance'], { stepSummary: true }],
  [['compliance', '--fail-under', '70.5', '--no-step-summary'], { failUnder: 70.5, stepSummary: false }],
  // webhooks
  [
    ['webhooks', 'create', '--url', 'https://h.example/x', '--events', 'all', '--secret-stdin'],
    { url: 'https://h.example/x', events: 'all', secretStdin: true },
  ],
  [['webhooks', 'list'], {}],
  [['webhooks', 'list', '--limit', '2', '--columns', 'id'], { limit: 2, columns: 'id' }],
  [['webhooks', 'delete', 'wh_1'], {}, ['wh_1']],
  [
    ['webhooks', 'verify', '--signature', 'sha256=ab', '--payload-file', 'p.json', '--secret-file', 's'],
    { signature: 'sha256=ab', payloadFile: 'p.json', secretFile: 's' },
  ],
  [['webhooks', 'listen'], { host: '127.0.0.1', port: '8088', path: '/' }],
  [
    [
      'webhooks',
      'listen',
      '--host',
      '::1',
      '--port',
      '0',
      '--path',
      '/hook',
      '--forward-to',
      'http://127.0.0.1:9/x',
      '--events',
      'scan.failed',
      '--save',
      'dir',
      '--tolerance',
      '5m',
      '--forward-duplicates',
      '--print-secret',
      '--secret-file',
      's',
    ],
    {
      host: '::1',
      port: '0',
      path: '/hook',
      forwardTo: 'http://127.0.0.1:9/x',
      events: 'scan.failed',
      save: 'dir',
      tolerance: '5m',
      forwardDuplicates: true,
      printSecret: true,
      secretFile: 's',
    },
  ],
  [
    ['webhooks', 'replay', 'a.json', 'dir', '--to', 'http://127.0.0.1:9/', '--resign', '--secret-file', 's'],
    { to: 'http://127.0.0.1:9/', resign: true, secretFile: 's' },
    ['a.json', 'dir'],
  ],
  [
    ['webhooks', 'trigger', 'scan.completed', '--url', 'http://127.0.0.1:9/', '--secret-file', 's'],
    { url: 'http://127.0.0.1:9/', secretFile: 's' },
    ['scan.completed'],
  ],
  // api
  [['api', '/connections'], { field: [] }, ['/connections']],
  [
    ['api', '-X', 'POST', '/x', '-f', 'a=1', '--field', 'b:=2', '--input', 'body.json', '--paginate'],
    { method: 'POST', field: ['a=1', 'b:=2'], input: 'body.json', paginate: true },
    ['/x'],
  ],
  // config
  [['config', 'list'], {}],
  [['config', 'get', 'base_url'], {}, ['base_url']],
  [['config', 'set', 'output', 'json'], {}, ['output', 'json']],
  [['config', 'unset', 'workspace'], {}, ['workspace']],
  [['config', 'profiles'], {}],
  [['config', 'path'], {}],
  // mcp
  [['mcp'], {}],
  [
    ['mcp', '--allow-write', '--toolsets', 'findings', '--tools', 'list_scans'],
    { allowWrite: true, toolsets: 'findings', tools: 'list_scans' },
  ],
  [['mcp', 'config'], { client: 'claude' }],
  // mcp has these flags too: given before or after `config`, they are config's.
  [['mcp', 'config', '--allow-write'], { client: 'claude', allowWrite: true }],
  [['mcp', '--tools', 'get_scan', 'config'], { client: 'claude', tools: 'get_scan' }],
  [
    ['mcp', 'config', '--client', 'cursor', '--toolsets', 'scans', '--tools', 'get_scan'],
    { client: 'cursor', toolsets: 'scans', tools: 'get_scan' },
  ],
  // version, doctor
  [['version'], {}],
  [['doctor'], {}],
];

/** [argv, what the usage error says]: each parser rejects what it must, before any verb runs. */
const REJECTED: [argv: string[], error: RegExp][] = [
  [['connections', 'list', '--limit', '0'], /--limit <n>.*positive whole number/],
  [['connections', 'list', '--offset', '-1'], /--offset/],
  [['connections', 'list', '--limit', '9007199254740993'], /whole number up to/],
  [['connections', 'create', '--provider', 'aws'], /required option '--alias <alias>'/],
  [['scans', 'create'], /required option '--connection <alias>'/],
  [['scans', 'wait', 'scn_1', '--wait-timeout', '0'], /seconds above 0/],
  [['scans', 'wait', 'scn_1', '--fail-on', 'severe'], /unknown severity "severe"/],
  [['scans', 'wait', 'scn_1', '--severity', 'high,'], /empty severity/],
  [['scans', 'wait', 'scn_1', '--report', 'pdf=x.pdf'], /unknown format "pdf"/],
  [['scans', 'list', '--connection', 'a,,b'], /empty connection alias/],
  [['findings', 'list', '--severity', 'urgent'], /--severity.*unknown severity "urgent"/],
  [['findings', 'list', '--status', ','], /empty status/],
  [['findings', 'list', '--report', 'sarif'], /--report/],
  [['findings', 'summary', '--by', 'team'], /Allowed choices are severity, connection, rule, status/],
  [['findings', 'summary', '--severity', 'nope'], /unknown severity/],
  [['findings', 'diff', '--head', 'b.json'], /required option '--base <ref>'/],
  [['findings', 'diff', '--base', 'a', '--head', 'b', '--state', 'gone'], /unknown state "gone"/],
  [['findings', 'diff', '--base', 'a', '--head', 'b', '--fail-on', 'x'], /unknown severity/],
  [['findings', 'get'], /missing required argument 'finding_id'/],
  [['compliance', '--fail-under', '101'], /score from 0 to 100/],
  [['webhooks', 'create', '--events', 'all'], /required option '--url <url>'/],
  [['webhooks', 'replay', 'a.json'], /required option '--to <url>'/],
  [['mcp', 'config', '--client', 'vim'], /Allowed choices/],
  [['config', 'set', 'output'], /missing required argument 'value'/],
  [['completion', 'tcsh'], /Allowed choices are bash, zsh, fish/],
  [['__complete', 'users'], /Allowed choices are profiles, connections, scans/],
];

describe('argv → a verb’s options and arguments', () => {
  it.each(ROWS)('%j', async (argv, opts, args = []) => {
    const got = await given(argv);
    // The verb that ran is the one argv names.
    expect(argv).toEqual(expect.arrayContaining(got.command.split(' ')));
    expect(got.opts).toStrictEqual(opts);
    expect(got.args).toEqual(args);
  });

  it.each(REJECTED)('%j is a usage error', async (argv, error) => {
    expect(await rejected(argv)).toMatch(error);
  });

  it('every verb of the tree has a row', async () => {
    const io = new IO(
      { stdin: new PassThrough(), stdout: new Collect(), stderr: new Collect() },
      { env: {} },
    );
    // Every action the tree wires to a verb (or a front end) is one verb.
    let wired = 0;
    const counting = Object.assign(
      () => {
        wired++;
        return () => Promise.resolve();
      },
      {
        frontEnd: () => {
          wired++;
          return () => Promise.resolve();
        },
      },
    ) as Wire;
    const program = buildProgram(
      io,
      () => {
        throw new Error('no context is made here');
      },
      {},
      undefined,
      undefined,
      counting,
    );
    // Every command without subcommands is a verb (completion's are not the Wire's: src/cli.ts).
    const leaves: string[] = [];
    (function walk(cmd: Command) {
      if (cmd.parent && cmd.commands.length === 0 && !['completion', '__complete'].includes(cmd.name()))
        leaves.push(commandPath(cmd));
      cmd.commands.forEach(walk);
    })(program);
    const covered = new Set<string>();
    for (const [argv] of ROWS) covered.add((await given(argv)).command);
    expect(wired).toBeGreaterThanOrEqual(36);
    expect([...covered]).toEqual(expect.arrayContaining(leaves));
    expect(covered.size).toBe(wired);
  });
});

// What a run function's options and arguments are is inferred from its command's definition (checked by tsc).
describe('a verb’s options type is its definition’s', () => {
  it('login: --email <email> a string, --password-stdin a flag', () => {
    expectTypeOf<OptionsOf<typeof loginCommand>>().toEqualTypeOf<{
      email?: string | undefined;
      passwordStdin?: boolean | undefined;
    }>();
    expectTypeOf<ArgsOf<typeof loginCommand>>().toEqualTypeOf<[]>();
  });

  it('config set: two words', () => {
    expectTypeOf<ArgsOf<typeof setCommand>>().toEqualTypeOf<[string, string]>();
  });

  it('findings list: --severity parsed to severities, --limit to a number, --no-ignore a boolean', () => {
    type O = OptionsOf<typeof findingsList>;
    expectTypeOf<O['severity']>().toEqualTypeOf<Severity[] | undefined>();
    expectTypeOf<O['limit']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<O['ignore']>().toEqualTypeOf<boolean | undefined>();
    expectTypeOf<O['report']>().toEqualTypeOf<ReportSpec[] | undefined>();
  });

  it('findings summary: --by one of its choices; findings ignore and webhooks replay: every word', () => {
    expectTypeOf<OptionsOf<typeof summaryCommand>['by']>().toEqualTypeOf<SummaryBy | undefined>();
    expectTypeOf<ArgsOf<typeof ignoreCommand>>().toEqualTypeOf<string[]>();
    expectTypeOf<ArgsOf<typeof replayCommand>>().toEqualTypeOf<string[]>();
  });

  it('completion: one of its shells', () => {
    expectTypeOf<ArgsOf<typeof completionCommand>>().toEqualTypeOf<['bash' | 'zsh' | 'fish']>();
  });
});

describe('argv is read once: the launcher’s reading is the CLI’s', () => {
  async function run(argv: string[], tokens?: ReturnType<typeof tokenize>) {
    const stdout = new Collect();
    const stderr = new Collect();
    const code = await main({
      argv,
      env: {},
      streams: { stdin: new PassThrough(), stdout, stderr },
      ...(tokens ? { tokens } : {}),
    });
    return { code, stdout: stdout.text, stderr: stderr.text };
  }

  it('main() takes the tokens it is handed (bin/cssctl.cjs) instead of reading argv again', async () => {
    const read = await run(['config', 'path', '--help'], tokenize(['config', 'path', '--help']));
    expect(read.code).toBe(0);
    expect(read.stdout).toContain('Usage: cssctl config path');
    // Handed a reading that names another command, the CLI builds that command's part of the tree only.
    const other = await run(['config', 'path'], tokenize(['version']));
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/unknown command 'config'/);
  });

  it('help after a two-value option routes by the words of argv as given (--arg name value help config)', async () => {
    const routed = await run(['--arg', 'name', 'value', 'help', 'config']);
    expect(routed.code, routed.stderr).toBe(0);
    expect(routed.stdout).toBe((await run(['config', '--help'])).stdout);
  });
});
