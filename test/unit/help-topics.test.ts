// `cssctl help <topic>` (src/help/): the docs/ pages at a terminal — Markdown's marks gone, text and tables
// within the width, colour only when the terminal gets colour — and `help` with a word that is neither a topic
// nor a command is exit 2 naming the topics. The pages of exit codes and environment stay true to the code.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildProgram, main } from '../../src/cli.js';
import { ExitCode, UsageError } from '../../src/core/errors.js';
import { IO } from '../../src/core/io.js';
import { routeHelp } from '../../src/help/command.js';
import { parseMarkdown, plain, type Block } from '../../src/help/markdown.js';
import { renderTopic, topicSource } from '../../src/help/pages.js';
import { renderTerminal } from '../../src/help/terminal.js';
import { HELP_TOPICS } from '../../src/help/topics.js';
import { Collect } from '../helpers/streams.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const ESC = '\u001b';

/** Lines of rendered text that come from code blocks (indented four spaces, as the renderer writes them). */
function codeLines(blocks: readonly Block[]): Set<string> {
  const out = new Set<string>();
  const walk = (list: readonly Block[]) => {
    for (const b of list) {
      if (b.kind === 'code') for (const l of b.text.split('\n')) out.add(l.trimEnd());
      else if (b.kind === 'list') b.items.forEach(walk);
      else if (b.kind === 'quote') walk(b.blocks);
    }
  };
  walk(blocks);
  return out;
}

/** Every table cell's plain text, for checking that the terminal shows it. */
function tableFirstCells(blocks: readonly Block[]): string[] {
  return blocks.flatMap((b) => (b.kind === 'table' ? b.rows.map((r) => plain(r[0] ?? [])) : []));
}

async function run(argv: string[], opts: { tty?: boolean; columns?: number; env?: NodeJS.ProcessEnv } = {}) {
  const stdout = new Collect(opts.tty) as Collect & { columns?: number };
  if (opts.columns !== undefined) stdout.columns = opts.columns;
  const stderr = new Collect();
  const code = await main({
    argv,
    env: opts.env ?? {},
    streams: { stdin: new PassThrough(), stdout, stderr },
  });
  return { code, stdout: stdout.text, stderr: stderr.text };
}

describe('the help topics', () => {
  it('each names a docs/ page that exists and is not a command', () => {
    const program = buildProgram(
      new IO({ stdin: new PassThrough(), stdout: new Collect(), stderr: new Collect() }, { env: {} }),
      () => {
        throw new Error('nothing runs');
      },
    );
    const commands = program.commands.map((c) => c.name());
    expect(HELP_TOPICS.map((t) => t.name)).toEqual([
      'exit-codes',
      'environment',
      'formats',
      'ignore-file',
      'ocsf',
      'csv',
    ]);
    for (const t of HELP_TOPICS) {
      expect(readdirSync(join(ROOT, 'docs'))).toContain(t.page.replace('docs/', ''));
      expect(commands).not.toContain(t.name);
    }
  });

  it.each(HELP_TOPICS.map((t) => t.name))('%s: no Markdown left, every line within the width', (name) => {
    const blocks = parseMarkdown(topicSource(name));
    const code = codeLines(blocks);
    for (const width of [80, 60, 40, 20]) {
      const text = renderTopic(name, { width });
      expect(text).not.toMatch(/\]\(|`|\*\*|^#+ |<!--/m);
      expect(text).not.toContain(ESC);
      for (const line of text.split('\n')) {
        if (code.has(line.replace(/^ +/, '').trimEnd()) || code.has(line.slice(4))) continue;
        expect([...line].length, `${name} at ${width}: ${line}`).toBeLessThanOrEqual(width);
      }
      // Every row of every table is there, whichever layout the width allows.
      // (A word longer than the width is cut across lines: compared without white space.)
      const squeezed = text.replace(/\s+/g, '');
      for (const cell of tableFirstCells(blocks))
        for (const word of cell.split(/\s+/)) expect(squeezed, `${name} at ${width}`).toContain(word);
    }
  });

  it('links give their text; a web address is kept after its text', () => {
    const blocks = parseMarkdown(
      'See [the ignore file](ignore-file.md#entries) and [jq](https://jqlang.org/manual/).',
    );
    expect(renderTerminal(blocks, { width: 200 })).toBe(
      'See the ignore file and jq (https://jqlang.org/manual/).\n',
    );
  });

  it('a table that fits keeps its columns; one that cannot becomes one record per row', () => {
    const blocks = parseMarkdown(
      '| code | meaning |\n|---|---|\n| 8 | rate limited past `--max-wait`: try again later, or give a larger one |\n',
    );
    expect(renderTerminal(blocks, { width: 80 })).toBe(
      [
        'code  meaning',
        `----  ${'-'.repeat('rate limited past --max-wait: try again later, or give a larger one'.length)}`,
        '8     rate limited past --max-wait: try again later, or give a larger one',
        '',
      ].join('\n'),
    );
    expect(renderTerminal(blocks, { width: 24 })).toBe(
      [
        'code:',
        '  8',
        'meaning:',
        '  rate limited past',
        '  --max-wait: try again',
        '  later, or give a',
        '  larger one',
        '',
      ].join('\n'),
    );
  });

  it('colour through the styles given only', () => {
    const blocks = parseMarkdown('# Title\n\nUse `--all` **now**.\n');
    const style = {
      bold: (t: string) => `<b>${t}</b>`,
      dim: (t: string) => t,
      code: (t: string) => `<c>${t}</c>`,
    };
    expect(renderTerminal(blocks, { width: 80, style })).toBe(
      '<b>Title</b>\n\nUse <c>--all</c> <b>now</b>.\n',
    );
    expect(renderTerminal(blocks, { width: 80 })).toBe('Title\n=====\n\nUse --all now.\n');
  });

  it('a word longer than the width is cut, never past it', () => {
    const text = renderTerminal(parseMarkdown(`x ${'a'.repeat(50)} y`), { width: 20 });
    expect(text.split('\n').every((l) => l.length <= 20)).toBe(true);
    expect(text.replace(/\n/g, '')).toContain('a'.repeat(20));
  });
});

describe('cssctl help …', () => {
  const program = buildProgram(
    new IO({ stdin: new PassThrough(), stdout: new Collect(), stderr: new Collect() }, { env: {} }),
    () => {
      throw new Error('nothing runs');
    },
  );

  it('routes a topic, a command, and refuses anything else with the topics and a suggestion', () => {
    expect(routeHelp(program, ['exit-codes'])).toEqual({ topic: 'exit-codes' });
    expect(routeHelp(program, ['scans', 'wait'])).toEqual({ command: ['scans', 'wait'] });
    expect(routeHelp(program, [])).toEqual({ command: [] });
    const refused = (words: string[]) => {
      try {
        routeHelp(program, words);
      } catch (err) {
        expect(err).toBeInstanceOf(UsageError);
        return (err as UsageError).message + ' | ' + (err as UsageError).hint;
      }
      throw new Error(`${words.join(' ')} was accepted`);
    };
    expect(refused(['exit-code'])).toMatch(
      /did you mean "exit-codes"\?.*topics: exit-codes, environment, formats, ignore-file, ocsf, csv.*\| cssctl help exit-codes$/,
    );
    expect(refused(['scna'])).toMatch(/did you mean "scans"/);
    expect(refused(['nothing-like-it'])).not.toMatch(/did you mean/);
    // The list names `cssctl help` already: no hint saying it again (it printed "(cssctl help)" twice).
    expect(refused(['foo'])).toBe(
      'no help topic or command "foo" (topics: exit-codes, environment, formats, ignore-file, ocsf, csv; cssctl help lists the commands) | undefined',
    );
    expect(refused(['nothing-like-it'])).toMatch(/\| undefined$/);
    expect(refused(['scans', 'wiat'])).toMatch(
      /under cssctl scans "wiat" — did you mean "wait"\?.*\| cssctl help scans wait$/,
    );
    expect(refused(['formats', 'extra'])).toMatch(/takes nothing after it/);
    expect(refused(['scans', 'wait', 'extra'])).toMatch(/cssctl scans wait has no command "extra"/);
  });

  it("prints the page at 80 columns to a pipe, at the terminal's width on one, and exits 0", async () => {
    const piped = await run(['help', 'exit-codes']);
    expect(piped.code).toBe(0);
    expect(piped.stderr).toBe('');
    expect(piped.stdout).toBe(renderTopic('exit-codes', { width: 80 }));
    const narrow = await run(['help', 'exit-codes'], { tty: true, columns: 44, env: { NO_COLOR: '1' } });
    expect(narrow.stdout).toBe(renderTopic('exit-codes', { width: 44 }));
    // A terminal that says it has 0 columns says nothing of its width.
    const zero = await run(['help', 'formats'], { tty: true, columns: 0, env: { NO_COLOR: '1' } });
    expect(zero.stdout).toBe(renderTopic('formats', { width: 80 }));
  });

  it('colour on a terminal, none with NO_COLOR, --no-color or a pipe', async () => {
    expect((await run(['help', 'formats'], { tty: true, columns: 100 })).stdout).toContain(ESC);
    expect(
      (await run(['help', 'formats'], { tty: true, columns: 100, env: { NO_COLOR: '1' } })).stdout,
    ).not.toContain(ESC);
    expect((await run(['--no-color', 'help', 'formats'], { tty: true, columns: 100 })).stdout).not.toContain(
      ESC,
    );
    expect((await run(['help', 'formats'])).stdout).not.toContain(ESC);
    expect((await run(['help', 'formats'], { env: { FORCE_COLOR: '1' } })).stdout).toContain(ESC);
  });

  it('an unknown topic is exit 2, one line naming the topics', async () => {
    const res = await run(['help', 'exit-code']);
    expect(res.code).toBe(ExitCode.usage);
    expect(res.stdout).toBe('');
    expect(res.stderr.trim().split('\n')).toHaveLength(1);
    expect(res.stderr).toMatch(
      /did you mean "exit-codes"\?.*topics: exit-codes, environment, formats, ignore-file, ocsf, csv/,
    );
  });

  it('help <command> is still <command> --help, and the root help lists the topics before its examples', async () => {
    expect((await run(['help', 'scans', 'wait'])).stdout).toBe(
      (await run(['scans', 'wait', '--help'])).stdout,
    );
    const root = (await run(['help'])).stdout;
    expect(root).toBe((await run(['--help'])).stdout);
    const at = root.indexOf('Help topics (cssctl help <topic>):');
    expect(at).toBeGreaterThan(0);
    expect(at).toBeLessThan(root.indexOf('Examples:'));
    for (const t of HELP_TOPICS)
      expect(root).toMatch(
        new RegExp(`^  ${t.name} +${t.summary.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm'),
      );
  });
});

describe('the exit-codes and environment pages are true to the code', () => {
  it('exit codes: the table holds every code of src/core/errors.ts, and nothing else', () => {
    const table = parseMarkdown(readFileSync(join(ROOT, 'docs/exit-codes.md'), 'utf8')).find(
      (b) => b.kind === 'table',
    );
    expect(table?.kind).toBe('table');
    const codes = (table as Extract<Block, { kind: 'table' }>).rows.map((r) => Number(plain(r[0]!)));
    expect(codes).toEqual(Object.values(ExitCode).sort((a, b) => a - b));
  });

  it('environment: every variable the code reads is on the page, and every one on the page is read', () => {
    const page = readFileSync(join(ROOT, 'docs/environment.md'), 'utf8');
    const onPage = new Set([...page.matchAll(/`([A-Z][A-Z0-9_]+)(?:=[^`]*)?`/g)].map((m) => m[1]!));
    const sources: string[] = [readFileSync(join(ROOT, 'bin/cssctl.cjs'), 'utf8')];
    const walk = (dir: string) => {
      for (const e of readdirSync(dir, { withFileTypes: true }))
        if (e.isDirectory()) walk(join(dir, e.name));
        else if (e.name.endsWith('.ts')) sources.push(readFileSync(join(dir, e.name), 'utf8'));
    };
    walk(join(ROOT, 'src'));
    const code = sources.join('\n');
    const read = new Set(
      [...code.matchAll(/\benv(?:\?)?\.([A-Z][A-Z0-9_]+)\b|\benv\[['"]([A-Z][A-Z0-9_]+)['"]\]/g)].map(
        (m) => m[1] ?? m[2]!,
      ),
    );
    // Read by the code but not settings for users: the tests' clock scales, the single executable's own
    // switches, and HOME and USERPROFILE (the documented XDG and %APPDATA% defaults stand for them).
    const internal = new Set([
      'CSSCTL_RETRY_BASE_MS',
      'CSSCTL_POLL_BASE_MS',
      'CSSCTL_DEBUG_STARTUP',
      'HOME',
      'USERPROFILE',
    ]);
    const missing = [...read].filter((v) => !onPage.has(v) && !internal.has(v));
    expect(missing, 'variables the code reads that docs/environment.md does not name').toEqual([]);
    // Node reads these itself (proxies are read by undici's EnvHttpProxyAgent).
    const byNode = new Set(['NODE_EXTRA_CA_CERTS', 'HTTPS_PROXY', 'HTTP_PROXY', 'NO_PROXY']);
    const unread = [...onPage].filter((v) => !read.has(v) && !byNode.has(v) && !code.includes(v));
    expect(unread, 'variables docs/environment.md names that nothing reads').toEqual([]);
    expect(read.size).toBeGreaterThan(10);
  });
});
