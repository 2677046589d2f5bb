// The command tree as completion sees it: read from commander at run time, so every registered command,
// flag and enumerated value appears without being listed here.
import type { Argument, Command, Option } from 'commander';
import { completionOf, type CommandCompletion, type CompletionValues, type DynamicValues } from './meta.js';
import { ALL_OUTPUTS, DEFAULT_OUTPUTS, VALUES_BY_ARGUMENT, VALUES_BY_FLAG, isListOption } from './values.js';
import { HELP_TOPICS } from '../help/topics.js';

export interface FlagSpec {
  long?: string;
  short?: string;
  takesValue: boolean;
  description: string;
  values?: CompletionValues;
  /** The value is a comma-separated list of values. */
  list?: boolean;
}

export interface ArgSpec {
  name: string;
  variadic: boolean;
  values?: CompletionValues;
}

export interface CommandSpec {
  /** Canonical names from the program down, e.g. ['cssctl', 'webhooks', 'trigger']. */
  path: string[];
  name: string;
  aliases: string[];
  description: string;
  /** Its own flags, then those of its ancestors (global flags), each once. */
  flags: FlagSpec[];
  args: ArgSpec[];
  commands: CommandSpec[];
}

function isCommandCompletion(v: unknown): v is CommandCompletion {
  return typeof v === 'object' && v !== null && 'outputs' in v;
}

function isValues(v: unknown): v is CompletionValues {
  return Array.isArray(v) || (typeof v === 'object' && v !== null && 'dynamic' in v);
}

/**
 * The output formats a command offers: its own declaration or its nearest ancestor's; else, for a command
 * that runs (a verb), the standard formats lazy() offers by default; before a verb is named, all of them.
 */
export function outputsOf(cmd: Command): readonly string[] {
  for (let c: Command | null = cmd; c; c = c.parent) {
    const meta = completionOf(c);
    if (isCommandCompletion(meta)) return meta.outputs;
  }
  return cmd.parent && cmd.commands.length === 0 ? DEFAULT_OUTPUTS : ALL_OUTPUTS;
}

function optionValues(option: Option, cmd: Command): CompletionValues | undefined {
  const meta = completionOf(option);
  if (isValues(meta)) return meta;
  if (option.argChoices) return option.argChoices;
  if (option.long === '--output') return outputsOf(cmd);
  return option.long ? VALUES_BY_FLAG[option.long] : undefined;
}

function argumentValues(arg: Argument): CompletionValues | undefined {
  const meta = completionOf(arg);
  if (isValues(meta)) return meta;
  return arg.argChoices ?? VALUES_BY_ARGUMENT[arg.name()];
}

function flagSpec(option: Option, cmd: Command): FlagSpec {
  const takesValue = option.required || option.optional;
  return {
    long: option.long,
    short: option.short,
    takesValue,
    description: option.description,
    values: takesValue ? optionValues(option, cmd) : undefined,
    ...(takesValue && isListOption(option.long, option.flags) ? { list: true } : {}),
  };
}

function walk(cmd: Command, path: string[]): CommandSpec {
  const help = cmd.createHelp();
  const seen = new Set<string>();
  const flags: FlagSpec[] = [];
  const add = (o: Option) => {
    const key = o.long ?? o.short ?? '';
    if (seen.has(key) || (o.short && seen.has(o.short))) return;
    seen.add(key);
    if (o.short) seen.add(o.short);
    flags.push(flagSpec(o, cmd));
  };
  help.visibleOptions(cmd).forEach(add);
  for (let a = cmd.parent; a; a = a.parent) a.options.filter((o) => !o.hidden).forEach(add);
  return {
    path,
    name: cmd.name(),
    aliases: cmd.aliases(),
    description: cmd.description().split('\n')[0] ?? '',
    flags,
    args: cmd.registeredArguments.map((a) => ({
      name: a.name(),
      variadic: a.variadic,
      values: argumentValues(a),
    })),
    commands: help.visibleCommands(cmd).map((c) => walk(c, [...path, c.name()])),
  };
}

/**
 * `cssctl help <command…>` (cli.ts turns it into `<command…> --help`): offered as a command whose words are
 * the command tree's, without their flags and arguments, and the help topics (`cssctl help exit-codes`).
 */
function helpSpec(root: CommandSpec): CommandSpec {
  const under = (c: CommandSpec, path: string[]): CommandSpec => ({
    ...c,
    path,
    flags: root.flags,
    args: [],
    commands: c.commands.map((s) => under(s, [...path, s.name])),
  });
  return {
    path: [root.name, 'help'],
    name: 'help',
    aliases: [],
    description: 'show help for a command',
    flags: root.flags,
    args: [],
    commands: [
      ...root.commands.map((c) => under(c, [root.name, 'help', c.name])),
      ...HELP_TOPICS.map((t) => ({
        path: [root.name, 'help', t.name],
        name: t.name,
        aliases: [],
        description: t.summary,
        flags: root.flags,
        args: [],
        commands: [],
      })),
    ],
  };
}

export function completionModel(program: Command): CommandSpec {
  const root = walk(program, [program.name()]);
  return { ...root, commands: [...root.commands, helpSpec(root)] };
}

/** Every command of the tree, the program first. */
export function allCommands(root: CommandSpec): CommandSpec[] {
  return [root, ...root.commands.flatMap(allCommands)];
}

export function flagNames(f: FlagSpec): string[] {
  return [f.long, f.short].filter((x): x is string => x !== undefined);
}

export function isDynamic(v: CompletionValues | undefined): v is DynamicValues {
  return v !== undefined && !Array.isArray(v);
}
