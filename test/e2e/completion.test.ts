import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEVERITIES } from '../../src/api/findings-types.js';
import { EVENT_TYPES } from '../../src/api/webhooks.js';
import { buildProgram } from '../../src/cli.js';
import { HELP_TOPICS } from '../../src/help/topics.js';
import { SCAN_STATUSES } from '../../src/completion/values.js';
import { API_OFFER } from '../../src/commands/api/index.js';
import { FINDINGS_OFFER } from '../../src/report/registry.js';
import { OUTPUT_FORMATS } from '../../src/core/config.js';
import { LIST_OFFER, WIDE_LIST_OFFER } from '../../src/core/output/offer.js';
import type { IO } from '../../src/core/io.js';
import { CLI_SHELL, hasCommand, runCli } from './harness.js';
import { Tmux, describeTmux, envPrefix } from './tmux.js';

/**
 * Completion in the real shells, through the built binary on PATH (a shim named cssctl). What each case
 * expects is read from the same sources the generator reads (the command tree, the enumerations), so the
 * tests keep holding as commands are added; the cases for commands another branch adds (findings, scans)
 * run once that branch is merged and are skipped before.
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FILES = { bash: 'cssctl.bash', zsh: '_cssctl', fish: 'cssctl.fish' } as const;
const PROFILES = ['default', 'staging', 'prod-eu'];

// The command tree as the binary registers it (no context is made: nothing runs).
const program = buildProgram({ out() {}, stderr: { write() {} } } as unknown as IO, () => {
  throw new Error('no command runs here');
});
const topLevel = program.commands
  .filter((c) => !(c as unknown as { _hidden: boolean })._hidden)
  .map((c) => c.name());
/** The first command path (e.g. ['findings', 'list']) that has this long flag, if any does yet. */
function pathWithFlag(flag: string, cmd: Command = program, path: string[] = []): string[] | undefined {
  if (path.length > 0 && cmd.options.some((o) => o.long === flag)) return path;
  for (const c of cmd.commands) {
    const p = pathWithFlag(flag, c, [...path, c.name()]);
    if (p) return p;
  }
  return undefined;
}
const severityPath = pathWithFlag('--severity');
const failOnPath = pathWithFlag('--fail-on');
const statusPath = pathWithFlag('--status');
const hasFindings = topLevel.includes('findings');

let dir: string;
let env: Record<string, string>;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'cssctl-completion-'));
  const bin = join(dir, 'bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'cssctl'), `#!/bin/sh\nexec ${CLI_SHELL} "$@"\n`);
  chmodSync(join(bin, 'cssctl'), 0o755);
  const config = join(dir, 'config');
  mkdirSync(config);
  const profiles = Object.fromEntries(PROFILES.map((p) => [p, { workspace: 'acme' }]));
  writeFileSync(join(config, 'config.json'), JSON.stringify({ profiles }));
  env = {
    PATH: `${bin}:${dirname(process.execPath)}:/usr/local/bin:/usr/bin:/bin`,
    HOME: join(dir, 'home'),
    LANG: 'C.UTF-8',
    CSSCTL_CONFIG_DIR: config,
  };
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const sorted = (xs: readonly string[]) => [...xs].sort();

describe('cssctl completion', () => {
  it.each(Object.entries(FILES))(
    'completions/%s is what `cssctl completion` prints (npm run completions)',
    async (shell, file) => {
      const res = await runCli(['completion', shell], env);
      expect(res.code).toBe(0);
      expect(res.stderr).toBe('');
      expect(readFileSync(join(ROOT, 'completions', file), 'utf8'), `run npm run completions`).toBe(
        res.stdout,
      );
    },
  );

  it('an unknown shell is a usage error naming the valid ones', async () => {
    const res = await runCli(['completion', 'powershell'], env);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/bash, zsh, fish/);
    expect(res.stdout).toBe('');
  });

  it('__complete profiles reads config.json only: no folder created, nothing written', async () => {
    const res = await runCli(['__complete', 'profiles'], env);
    expect(res.code).toBe(0);
    expect(sorted(res.stdout.trim().split('\n'))).toEqual(sorted(PROFILES));
    expect(readdirSync(env.CSSCTL_CONFIG_DIR!)).toEqual(['config.json']);
    const missing = join(dir, 'nowhere');
    const none = await runCli(['__complete', 'profiles'], { ...env, CSSCTL_CONFIG_DIR: missing });
    expect(none.code).toBe(0);
    expect(none.stdout).toBe('');
    expect(existsSync(missing)).toBe(false);
  });

  it('__complete is not listed in help', async () => {
    const res = await runCli(['--help'], env);
    expect(res.stdout).toMatch(/completion/);
    expect(res.stdout).not.toMatch(/__complete/);
  });
});

/** The cases every shell must answer: the words before the cursor, the word being typed, the expected set. */
interface Case {
  name: string;
  words: string[];
  cur: string;
  expected: readonly string[];
  skip?: boolean;
}
const cases = (): Case[] => [
  // Runs once the findings branch is merged (issue 8 names this case); skipped while the tree has no findings.
  { name: 'cssctl fi<TAB>', words: [], cur: 'fi', expected: ['findings'], skip: !hasFindings },
  { name: 'cssctl webh<TAB>', words: [], cur: 'webh', expected: ['webhooks'] },
  // `cssctl help <command…>` is `<command…> --help` (cli.ts): offered as a command, with the tree's words.
  { name: 'cssctl he<TAB>', words: [], cur: 'he', expected: ['help'] },
  // …and the help topics (src/help/topics.ts).
  {
    name: 'cssctl help <TAB>',
    words: ['help'],
    cur: '',
    expected: [...topLevel, ...HELP_TOPICS.map((t) => t.name)],
  },
  { name: 'cssctl help exi<TAB>', words: ['help'], cur: 'exi', expected: ['exit-codes'] },
  {
    name: 'cssctl help webhooks <TAB>',
    words: ['help', 'webhooks'],
    cur: '',
    expected: program.commands.find((c) => c.name() === 'webhooks')!.commands.map((c) => c.name()),
  },
  { name: 'cssctl co<TAB>', words: [], cur: 'co', expected: topLevel.filter((n) => n.startsWith('co')) },
  { name: '-o <TAB>', words: ['-o'], cur: '', expected: OUTPUT_FORMATS },
  // -o after a verb: the formats that verb offers (lazy()'s default, or what it declares; a list: wide too).
  {
    name: 'webhooks list --output <TAB>',
    words: ['webhooks', 'list', '--output'],
    cur: '',
    expected: WIDE_LIST_OFFER.names,
  },
  {
    name: 'webhooks delete x --output <TAB>',
    words: ['webhooks', 'delete', 'x', '--output'],
    cur: '',
    expected: LIST_OFFER.names,
  },
  { name: 'api /x -o <TAB>', words: ['api', '/x', '-o'], cur: '', expected: API_OFFER.names },
  {
    name: 'findings list -o <TAB>',
    words: ['findings', 'list', '-o'],
    cur: '',
    expected: FINDINGS_OFFER.names,
  },
  { name: 'webhooks trigger <TAB>', words: ['webhooks', 'trigger'], cur: '', expected: EVENT_TYPES },
  {
    name: 'webhooks trigger finding.<TAB>',
    words: ['webhooks', 'trigger'],
    cur: 'finding.',
    expected: EVENT_TYPES.filter((e) => e.startsWith('finding.')),
  },
  { name: '--profile <TAB>', words: ['--profile'], cur: '', expected: PROFILES },
  {
    name: 'auth status --profile st<TAB>',
    words: ['auth', 'status', '--profile'],
    cur: 'st',
    expected: ['staging'],
  },
  { name: 'auth switch <TAB>', words: ['auth', 'switch'], cur: '', expected: PROFILES },
  { name: 'webhooks trigger --u<TAB>', words: ['webhooks', 'trigger'], cur: '--u', expected: ['--url'] },
  {
    name: 'config get <TAB>',
    words: ['config', 'get'],
    cur: '',
    expected: ['base_url', 'workspace', 'email', 'output'],
  },
  // --severity, --fail-on and --status belong to the scans and findings commands of other branches.
  {
    name: '--severity <TAB>',
    words: [...(severityPath ?? []), '--severity'],
    cur: '',
    expected: SEVERITIES,
    skip: !severityPath,
  },
  {
    name: '--severity high,<TAB> (a comma-separated list, without the values already given)',
    words: [...(severityPath ?? []), '--severity'],
    cur: 'high,',
    expected: SEVERITIES.filter((v) => v !== 'high').map((v) => `high,${v}`),
    skip: !severityPath,
  },
  {
    name: '--severity critical,low,<TAB>',
    words: [...(severityPath ?? []), '--severity'],
    cur: 'critical,low,',
    expected: ['high', 'medium', 'info'].map((v) => `critical,low,${v}`),
    skip: !severityPath,
  },
  {
    name: '--fail-on <TAB>',
    words: [...(failOnPath ?? []), '--fail-on'],
    cur: '',
    expected: SEVERITIES,
    skip: !failOnPath,
  },
  {
    name: '--status <TAB>',
    words: [...(statusPath ?? []), '--status'],
    cur: '',
    expected: SCAN_STATUSES,
    skip: !statusPath,
  },
];

function sh(cmd: string, args: string[], extra: Record<string, string> = {}): string {
  return execFileSync(cmd, args, { encoding: 'utf8', env: { ...env, ...extra }, timeout: 20_000 });
}

describe.runIf(hasCommand('bash') || process.env.CI === 'true')('bash', () => {
  // The completion function driven as bash drives it: COMP_WORDS and COMP_CWORD set, then COMPREPLY read.
  const complete = (words: string[], cur: string) =>
    sh('bash', [
      '-c',
      'source <(cssctl completion bash) && COMP_WORDS=("$@") && COMP_CWORD=$(($# - 1)) && _cssctl && printf "%s\\n" "${COMPREPLY[@]}"',
      'bash',
      'cssctl',
      ...words,
      cur,
    ])
      .split('\n')
      .filter(Boolean);

  it('binds the completer to cssctl', () => {
    expect(sh('bash', ['-c', 'source <(cssctl completion bash) && complete -p cssctl'])).toMatch(
      /-F _cssctl cssctl/,
    );
  });

  for (const c of cases())
    it.skipIf(c.skip)(c.name, () => {
      expect(sorted(complete(c.words, c.cur))).toEqual(sorted(c.expected));
    });

  it('--output=<TAB> (split at = as COMP_WORDBREAKS does)', () => {
    expect(sorted(complete(['--output', '='], ''))).toEqual(sorted(OUTPUT_FORMATS));
    expect(complete(['--output', '='], 'nd')).toEqual(['ndjson']);
  });

  it('a flag value is not taken for a command: -o json webhooks tr<TAB>', () => {
    expect(complete(['-o', 'json', 'webhooks'], 'tr')).toEqual(['trigger']);
  });
});

describe.runIf(hasCommand('fish') || process.env.CI === 'true')('fish', () => {
  const complete = (words: string[], cur: string) =>
    sh('fish', ['--no-config', '-c', 'cssctl completion fish | source; complete -C "$CSSCTL_LINE"'], {
      CSSCTL_LINE: ['cssctl', ...words, cur].join(' '),
    })
      .split('\n')
      .filter(Boolean)
      .map((l) => l.split('\t')[0]!);

  for (const c of cases())
    it.skipIf(c.skip)(c.name, () => {
      expect(sorted(complete(c.words, c.cur))).toEqual(sorted(c.expected));
    });
});

describe.runIf(hasCommand('zsh') || process.env.CI === 'true')('zsh binding', () => {
  it('source <(cssctl completion zsh) after compinit binds _cssctl', () => {
    const out = sh('zsh', [
      '-fc',
      `autoload -Uz compinit && compinit -u -d ${dir}/zcompdump-a && source <(cssctl completion zsh) && print -r -- $_comps[cssctl]`,
    ]);
    expect(out.trim()).toBe('_cssctl');
  });

  it('completions/_cssctl on $fpath is found by compinit', () => {
    const out = sh('zsh', [
      '-fc',
      `fpath=(${join(ROOT, 'completions')} $fpath) && autoload -Uz compinit && compinit -u -d ${dir}/zcompdump-b && print -r -- $_comps[cssctl]`,
    ]);
    expect(out.trim()).toBe('_cssctl');
  });
});

describeTmux('zsh at a real terminal (tmux)', () => {
  let tmux: Tmux;
  beforeAll(() => {
    tmux = new Tmux(dir);
  });
  afterAll(() => tmux.kill());

  /** An interactive zsh whose .zshrc runs compinit and then `setup` (sourcing the script, or fpath). */
  function zsh(name: string, setup: string): string {
    const zdot = join(dir, `zdot-${name}`);
    mkdirSync(zdot);
    writeFileSync(
      join(zdot, '.zshrc'),
      `PS1='%% '\n${setup.startsWith('fpath') ? `${setup}\n` : ''}autoload -Uz compinit && compinit -u -d ${zdot}/.zcompdump\n${setup.startsWith('fpath') ? '' : `${setup}\n`}`,
    );
    return tmux.start(`${envPrefix({ ...env, ZDOTDIR: zdot, TERM: 'xterm-256color' })} zsh -i\n`);
  }

  /** Types the line, presses TAB, and returns the screen once the listing (or the completed line) shows. */
  async function tab(s: string, line: string, expect: RegExp): Promise<string> {
    tmux.key(s, 'C-u');
    tmux.key(s, 'C-l');
    // A clean screen first, so nothing left from the case before can match.
    await tmux.waitFor(s, /^\s*%\s*$/);
    tmux.type(s, line);
    tmux.key(s, 'Tab');
    return tmux.waitFor(s, expect);
  }

  const listing = (xs: readonly string[]) =>
    new RegExp(xs.map((x) => `(?=[\\s\\S]*\\b${x.replace(/\./g, '\\.')}\\b)`).join(''));

  it('source <(cssctl completion zsh): commands, -o, webhooks trigger, --profile, and the tree-dependent cases', async () => {
    const s = zsh('sourced', 'source <(cssctl completion zsh)');
    await tmux.waitFor(s, /^% /m);
    expect(await tab(s, 'cssctl webh', /^% cssctl webhooks\s*$/m)).toBeTruthy();
    const formats = await tab(s, 'cssctl -o ', listing(OUTPUT_FORMATS));
    for (const f of OUTPUT_FORMATS) expect(formats).toContain(f);
    const events = await tab(s, 'cssctl webhooks trigger ', listing(EVENT_TYPES));
    for (const e of EVENT_TYPES) expect(events).toContain(e);
    const profiles = await tab(s, 'cssctl --profile ', listing(PROFILES));
    for (const p of PROFILES) expect(profiles).toContain(p);
    // The next three run once the findings branch (findings, scans) is merged.
    if (hasFindings) await tab(s, 'cssctl fi', /^% cssctl findings\s*$/m);
    if (severityPath) {
      const sev = await tab(s, `cssctl ${severityPath.join(' ')} --severity `, listing(SEVERITIES));
      for (const v of SEVERITIES) expect(sev).toContain(v);
    }
    if (statusPath) await tab(s, `cssctl ${statusPath.join(' ')} --status `, listing(SCAN_STATUSES));
    if (severityPath) {
      // A comma-separated list: after the comma, the values not given yet.
      const others = SEVERITIES.filter((v) => v !== 'high');
      const more = await tab(s, `cssctl ${severityPath.join(' ')} --severity high,`, listing(others));
      expect(more).toMatch(/--severity high,\s*$/m);
      const candidates = more.slice(more.indexOf('--severity high,') + '--severity high,'.length);
      expect(candidates).not.toMatch(/\bhigh\b/);
    }
  });

  it('completions/_cssctl installed on $fpath completes as well', async () => {
    const s = zsh('fpath', `fpath=(${join(ROOT, 'completions')} $fpath)`);
    await tmux.waitFor(s, /^% /m);
    const events = await tab(s, 'cssctl webhooks trigger ', listing(EVENT_TYPES));
    for (const e of EVENT_TYPES) expect(events).toContain(e);
    await tab(s, 'cssctl webh', /^% cssctl webhooks\s*$/m);
  });
});
