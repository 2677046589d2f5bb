// docs/commands.md and the man pages are generated from the command tree (src/reference/): the committed page
// and package.json `man` must match what the tree gives (npm run docs), every command, option, default,
// environment variable and example must read back as written, and every man page must pass groff's own checks.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli.js';
import { IO } from '../../src/core/io.js';
import { parseMarkdown, plain, type Block } from '../../src/help/markdown.js';
import { commandsMarkdown, manFiles, manualPages } from '../../src/reference/index.js';
import { allCommands, readReference, type CommandDoc } from '../../src/reference/model.js';
import { Roff, roffText } from '../../src/reference/roff.js';
import { Collect } from '../helpers/streams.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const read = (page: string) => readFileSync(join(ROOT, page), 'utf8');

function program(): Command {
  const io = new IO({ stdin: new PassThrough(), stdout: new Collect(), stderr: new Collect() }, { env: {} });
  return buildProgram(
    io,
    () => {
      throw new Error('nothing runs here');
    },
    {},
  );
}

/** The blocks of a reference page between a command's heading and the next heading. */
function sectionOf(blocks: readonly Block[], name: string): Block[] {
  const at = blocks.findIndex((b) => b.kind === 'heading' && plain(b.spans) === name);
  expect(at, `a section for ${name}`).toBeGreaterThanOrEqual(0);
  const end = blocks.findIndex((b, i) => i > at && b.kind === 'heading');
  return blocks.slice(at + 1, end < 0 ? undefined : end);
}

/** That a command's section says what the tree says, read back through a Markdown parser. */
function expectSection(blocks: readonly Block[], cmd: CommandDoc): void {
  const section = sectionOf(blocks, cmd.name);
  const para = section.find((b) => b.kind === 'paragraph');
  // (A description of several lines is one paragraph.)
  expect(para && plain(para.kind === 'paragraph' ? para.spans : []), cmd.name).toBe(
    cmd.description.replace(/\s*\n\s*/g, ' '),
  );
  const code = section.filter((b) => b.kind === 'code');
  expect(code[0]?.kind === 'code' && code[0].text, cmd.name).toBe(cmd.usage);
  const tables = section.filter((b): b is Extract<Block, { kind: 'table' }> => b.kind === 'table');
  if (cmd.options.length) {
    const table = tables.find((t) => plain(t.header[0]!) === 'option')!;
    expect(table, cmd.name).toBeDefined();
    expect(table.rows.map((r) => r.map(plain))).toEqual(
      cmd.options.map((o) => [
        `${o.flags}${o.required ? ' (required)' : ''}`,
        `${o.description}${o.choices ? ` (one of: ${o.choices.join(', ')})` : ''}`,
        o.default ?? '',
        o.env ?? '',
      ]),
    );
  }
  if (cmd.examples.length)
    expect(code.at(-1)?.kind === 'code' && code.at(-1)!.text).toBe(cmd.examples.join('\n'));
}

/** groff (Debian: groff-base; scripts/lib.sh installs it): a real renderer checks the pages. */
const groff =
  spawnSync('sh', ['-c', 'command -v groff'], { stdio: 'ignore' }).status === 0 || process.env.CI === 'true';

/** groff's warnings (-ww: all of them) and the page as text, for one man page. */
function render(page: string): { warnings: string; text: string } {
  const res = spawnSync('groff', ['-man', '-Tutf8', '-ww'], {
    input: page,
    encoding: 'utf8',
    env: { ...process.env, LC_ALL: 'C.UTF-8' },
  });
  // Bold and underline by overstriking, as grotty writes them, taken away.
  // eslint-disable-next-line no-control-regex
  return { warnings: res.stderr, text: res.stdout.replace(/.\u0008/g, '') };
}

describe('docs/commands.md', () => {
  it('is what the command tree gives (run npm run docs after changing a command)', () => {
    expect(read('docs/commands.md'), 'docs/commands.md differs from the command tree: run npm run docs').toBe(
      commandsMarkdown(program()),
    );
  });

  it('reads back, through a Markdown parser, as every command, option, default, variable and example', () => {
    const ref = readReference(program());
    const blocks = parseMarkdown(read('docs/commands.md'));
    const commands = allCommands(ref.root).slice(1);
    expect(commands.length).toBeGreaterThan(30);
    for (const cmd of commands) expectSection(blocks, cmd);
    // Some values that come from where they should: commander's default, a description's (env: …).
    const listen = commands.find((c) => c.name === 'cssctl webhooks listen')!;
    expect(listen.options.find((o) => o.flags.startsWith('--port'))?.default).toBe('8088');
    const global = ref.root.options;
    expect(global.find((o) => o.flags === '--profile <name>')?.env).toBe('CSSCTL_PROFILE');
    expect(global.find((o) => o.flags === '--timeout <seconds>')?.default).toBe('30');
    const wait = commands.find((c) => c.name === 'cssctl scans wait')!;
    expect(wait.options.find((o) => o.flags.startsWith('--ignore-file'))?.env).toBe('CSSCTL_IGNORE_FILE');
    expect(wait.formats).toContain('sarif');
    expect(commands.find((c) => c.name === 'cssctl completion')!.formats).toEqual([]);
  });
});

describe('package.json man', () => {
  it('names every page the build writes, and the package ships them', () => {
    const pkg = JSON.parse(read('package.json')) as { man: string[]; files: string[] };
    expect(pkg.man, 'package.json man differs from the command tree: run npm run docs').toEqual(
      manFiles(program()).map((f) => `dist/man/${f}`),
    );
    expect(pkg.man[0]).toBe('dist/man/cssctl.1');
    expect(pkg.man).toContain('dist/man/cssctl-findings-list.1');
    expect(pkg.files).toContain('dist/man/');
  });
});

describe('a command added to the tree', () => {
  // As another branch adds one: nothing to edit but the command itself; hostile text in every field.
  const tree = () => {
    const p = program();
    p.command('zz-new')
      .description("a <b> | c_d *e* [x](y) `q` \\ back & more\n.TH line 'quoted' -dash → ok")
      .argument('<thing...>', 'what to take, e.g. /api/v1<path>')
      .option('--x-y <v>', '.so /etc/passwd \\fB not bold | pipe (default: 5) (env: CSSCTL_X)')
      .requiredOption('--must <m>', 'needed');
    return p;
  };

  it('is in docs/commands.md, its text read back as written', () => {
    const p = tree();
    const cmd = allCommands(readReference(p).root).find((c) => c.name === 'cssctl zz-new')!;
    expect(cmd.options.map((o) => [o.flags, o.default, o.env, o.required])).toEqual([
      ['--x-y <v>', '5', 'CSSCTL_X', false],
      ['--must <m>', undefined, undefined, true],
    ]);
    const blocks = parseMarkdown(commandsMarkdown(p));
    expectSection(blocks, cmd);
    const args = sectionOf(blocks, 'cssctl zz-new').find(
      (b): b is Extract<Block, { kind: 'table' }> => b.kind === 'table' && plain(b.header[0]!) === 'argument',
    )!;
    expect(args.rows.map((r) => r.map(plain))).toEqual([['<thing...>', 'what to take, e.g. /api/v1<path>']]);
  });

  it.runIf(groff)('has a man page that groff reads without a warning, text intact', () => {
    const pages = manualPages(tree(), read, '2026-01-01');
    const page = pages.get('cssctl-zz-new.1')!;
    expect(page).toBeDefined();
    const { warnings, text } = render(page);
    expect(warnings).toBe('');
    const flat = text.replace(/\s+/g, ' ');
    expect(flat).toContain("A <b> | c_d *e* [x](y) `q` \\ back & more .TH line 'quoted' -dash → ok.");
    expect(flat).toContain('.so /etc/passwd \\fB not bold | pipe. Default: 5. Environment: CSSCTL_X.');
    expect(flat).toContain('--x-y <v>');
    expect(flat).toContain('--must <m> Needed. Required.');
  });
});

describe.runIf(groff)('the man pages', () => {
  const pages = manualPages(program(), read, '2026-01-01');

  it('are cssctl.1 and one page per command, as package.json names them', () => {
    expect([...pages.keys()]).toEqual(manFiles(program()));
  });

  it('each passes groff -man -ww with no warning', () => {
    for (const [name, page] of pages) expect(render(page).warnings, name).toBe('');
  });

  it('print options as they are typed: hyphen-minus, never a typographic dash', () => {
    const { text } = render(pages.get('cssctl-scans-wait.1')!);
    expect(text).toMatch(/^NAME\n {7}cssctl-scans-wait - wait until a scan is final/m);
    expect(text).toContain('--wait-timeout <seconds>');
    expect(text).toContain('$ cssctl scans wait scn_0123456789abcdef --fail-on critical --wait-timeout 600');
    expect(text).not.toMatch(/[\u2010\u2011\u2012\u2013\u2212]/);
  });

  it('cssctl(1) holds the exit status and the environment from the pages cssctl help prints', () => {
    const { text } = render(pages.get('cssctl.1')!);
    const flat = text.replace(/\s+/g, ' ');
    expect(text).toMatch(/^EXIT STATUS$/m);
    expect(text).toMatch(/^ENVIRONMENT$/m);
    expect(text).toMatch(/^HELP TOPICS$/m);
    expect(flat).toContain('8 rate limited past --max-wait (429)');
    expect(flat).toContain('CSSCTL_TOKEN an access token used as it is');
    expect(flat).toContain('SEE ALSO cssctl-login(1), cssctl-logout(1)');
  });
});

describe('roff', () => {
  it('escapes what roff would read as its own', () => {
    expect(roffText('a\\b -c "d" → é')).toBe('a\\eb \\-c "d" \\[u2192] \\[u00E9]');
    expect(roffText('line\nbreak\ttab\u0007bell')).toBe('line break tabbell');
    const r = new Roff().text(".TH evil\n'quoted\n  lead\n\nx").toString();
    expect(r).toBe("\\&.TH evil\n\\&'quoted\nlead\n\\&\nx\n");
  });

  it.runIf(groff)('groff prints hostile text as text', () => {
    const hostile = ".TH X\n'br\n\\fB\\n(.l \\(em \\\\ -- .so /etc/passwd";
    const page = new Roff().macro('TH', 'X', '1').macro('SH', 'NAME').text(roffText(hostile)).toString();
    const { warnings, text } = render(page);
    expect(warnings).toBe('');
    expect(text.replace(/\s+/g, ' ')).toContain(hostile.replace(/\s+/g, ' '));
  });
});

describe('the build', () => {
  it.runIf(groff)('writes the man pages the tests check (dist/man/), without a warning from groff', () => {
    const list = readdirSync(join(ROOT, 'dist/man')).sort();
    expect(list).toEqual([...manFiles(program())].sort());
    for (const file of list) expect(render(read(`dist/man/${file}`)).warnings, file).toBe('');
  });
});
