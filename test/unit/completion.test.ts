import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Argument, Command, Option } from 'commander';
import { afterAll, describe, expect, it } from 'vitest';
import { SEVERITIES } from '../../src/api/findings-types.js';
import { EVENT_TYPES } from '../../src/api/webhooks.js';
import { completeWith } from '../../src/completion/meta.js';
import { allCommands, completionModel, type CommandSpec } from '../../src/completion/model.js';
import { profileNames } from '../../src/completion/profiles.js';
import { ALL_OUTPUTS, DEFAULT_OUTPUTS, SCAN_STATUSES } from '../../src/completion/values.js';
import { LIST_OFFER } from '../../src/core/output/offer.js';
import { HELP_TOPICS } from '../../src/help/topics.js';

/** A tree shaped like cssctl's, with every way of declaring values the convention offers. */
function tree(): Command {
  const program = new Command('cssctl')
    .helpCommand(false)
    .option('--profile <name>')
    .addOption(new Option('-o, --output <format>'))
    .option('-q, --quiet');
  const findings = program.command('findings').alias('f');
  findings
    .command('list')
    .option('--severity <s[,s...]>', 'by name', (v) => v)
    .option('--status <s>')
    .addOption(completeWith(new Option('--region <r>'), ['eu', 'us']))
    .addOption(new Option('--mode <m>').choices(['fast', 'full']))
    .option('--limit <n>')
    .option('--connection <alias[,alias...]>');
  completeWith(findings, { outputs: ['table', 'sarif'] });
  const hooks = program.command('webhooks');
  hooks.command('trigger').argument('<event>').option('--url <url>');
  hooks
    .command('replay')
    .addArgument(completeWith(new Argument('<profile>'), { dynamic: 'profiles' }))
    .addArgument(new Argument('[kinds...]').choices(['a', 'b']));
  program.command('auth').command('switch').argument('<profile>');
  program.command('secret', { hidden: true });
  program.command('gone').addOption(new Option('--internal <x>').hideHelp());
  return program;
}

const model = completionModel(tree());
const at = (...path: string[]): CommandSpec => {
  const c = allCommands(model).find((x) => x.path.join(' ') === ['cssctl', ...path].join(' '));
  if (!c) throw new Error(`no ${path.join(' ')}`);
  return c;
};
const flag = (c: CommandSpec, long: string) => c.flags.find((f) => f.long === long);

describe('the completion model', () => {
  it('lists commands and aliases, not hidden ones', () => {
    expect(model.commands.map((c) => c.name)).toEqual(['findings', 'webhooks', 'auth', 'gone', 'help']);
    expect(at('findings').aliases).toEqual(['f']);
  });

  it('offers help as a command whose words are the tree, without flags of their own or arguments', () => {
    // …then the help topics (cssctl help exit-codes).
    expect(at('help').commands.map((c) => c.name)).toEqual([
      'findings',
      'webhooks',
      'auth',
      'gone',
      ...HELP_TOPICS.map((t) => t.name),
    ]);
    expect(at('help', 'exit-codes').commands).toEqual([]);
    const list = at('help', 'findings', 'list');
    expect(list.path).toEqual(['cssctl', 'help', 'findings', 'list']);
    expect(list.args).toEqual([]);
    expect(list.flags.map((f) => f.long)).not.toContain('--severity');
    expect(list.flags.map((f) => f.long)).toContain('--profile');
  });

  it('gives every command its own flags, the help flag and the global ones, each once', () => {
    const names = at('findings', 'list').flags.map((f) => f.long);
    expect(names).toEqual(
      expect.arrayContaining(['--severity', '--help', '--profile', '--output', '--quiet']),
    );
    expect(new Set(names).size).toBe(names.length);
    expect(flag(at('gone'), '--internal')).toBeUndefined();
    expect(flag(at('findings', 'list'), '--output')?.short).toBe('-o');
    expect(flag(at('findings', 'list'), '--quiet')?.takesValue).toBe(false);
  });

  it('finds values by flag name, by choices(), by completeWith(), and nothing for a free value', () => {
    const list = at('findings', 'list');
    expect(flag(list, '--severity')?.values).toEqual(SEVERITIES);
    expect(flag(list, '--status')?.values).toEqual(SCAN_STATUSES);
    expect(flag(list, '--severity')?.list).toBe(true);
    expect(flag(list, '--status')?.list).toBeUndefined();
    // A list by its placeholder, with values from the service.
    expect(flag(list, '--connection')).toMatchObject({ values: { dynamic: 'connections' }, list: true });
    expect(flag(list, '--region')?.values).toEqual(['eu', 'us']);
    expect(flag(list, '--mode')?.values).toEqual(['fast', 'full']);
    expect(flag(list, '--limit')?.values).toBeUndefined();
    expect(flag(list, '--profile')?.values).toEqual({ dynamic: 'profiles' });
  });

  it('offers the output formats a command declares (inherited by its subcommands), else the default ones', () => {
    expect(flag(at('findings', 'list'), '--output')?.values).toEqual(['table', 'sarif']);
    expect(flag(at('webhooks', 'trigger'), '--output')?.values).toEqual(DEFAULT_OUTPUTS);
    expect(DEFAULT_OUTPUTS).toEqual(LIST_OFFER.names);
    // Before a verb is named, every format.
    expect(flag(at('webhooks'), '--output')?.values).toEqual(ALL_OUTPUTS);
    expect(flag(model, '--output')?.values).toEqual(ALL_OUTPUTS);
  });

  it('completes arguments by name, by completeWith() and by choices(), variadic ones included', () => {
    expect(at('webhooks', 'trigger').args).toEqual([{ name: 'event', variadic: false, values: EVENT_TYPES }]);
    expect(at('auth', 'switch').args).toEqual([
      { name: 'profile', variadic: false, values: { dynamic: 'profiles' } },
    ]);
    expect(at('webhooks', 'replay').args).toEqual([
      { name: 'profile', variadic: false, values: { dynamic: 'profiles' } },
      { name: 'kinds', variadic: true, values: ['a', 'b'] },
    ]);
  });
});

describe('profile names for TAB', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cssctl-profiles-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('are the profiles of config.json with valid names', () => {
    writeFileSync(
      join(dir, 'config.json'),
      JSON.stringify({ profiles: { default: {}, 'prod-eu': {}, 'bad name': {} } }),
    );
    expect(profileNames(dir)).toEqual(['default', 'prod-eu']);
    expect(readdirSync(dir)).toEqual(['config.json']);
  });

  it('are none, without an error or a file created, when config.json is missing or not a config', () => {
    expect(profileNames(join(dir, 'missing'))).toEqual([]);
    expect(readdirSync(dir)).toEqual(['config.json']);
    for (const text of ['{', '[]', 'null', '{"profiles": []}', '{"profiles": 3}']) {
      writeFileSync(join(dir, 'config.json'), text);
      expect(profileNames(dir)).toEqual([]);
    }
  });
});
