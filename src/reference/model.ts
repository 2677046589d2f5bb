// The command reference's model, read from the commander program the CLI runs (the build passes the one of
// dist/cli.cjs, tests the one of src/cli.ts): every visible command with its usage line, description,
// arguments, options (default and environment variable, from commander's own fields or the description's
// "(default: …)" / "(env: …)") and examples. docs/commands.md (markdown.ts) and the man pages (man.ts) are
// both written from it, so a command added to the tree appears in both with nothing else to edit.
import type { Argument, Command, Option } from 'commander';
import { examplesOf } from '../help/examples.js';
import { outputsOf } from '../completion/model.js';

export interface OptionDoc {
  /** As commander prints them: `-o, --output <format>`. */
  flags: string;
  description: string;
  default?: string;
  env?: string;
  choices?: readonly string[];
  required: boolean;
}

export interface ArgumentDoc {
  /** `<scan_id>`, `<paths...>`, `[value]`. */
  usage: string;
  description: string;
  choices?: readonly string[];
}

export interface CommandDoc {
  /** The words after `cssctl`: [] for the program, ['scans', 'wait'] for a verb. */
  path: string[];
  /** `cssctl scans wait`. */
  name: string;
  /** commander's usage line, with the command's name: `cssctl scans wait [options] <scan_id>`. */
  usage: string;
  description: string;
  arguments: ArgumentDoc[];
  /** Its own options, without -h/--help (the program's are the global options). */
  options: OptionDoc[];
  /** The -o formats a command that runs offers (as completion offers them); none for a noun. */
  formats: readonly string[];
  examples: readonly string[];
  commands: CommandDoc[];
}

export interface Reference {
  version: string;
  root: CommandDoc;
}

const ENV = /\s*\(env: ([^)]+)\)/;
const DEFAULT = /\s*\(default: ([^)]+)\)/;

function optionDoc(o: Option): OptionDoc {
  let description = o.description;
  let env = o.envVar;
  let def: string | undefined;
  const e = ENV.exec(description);
  if (e) {
    env ??= e[1]!.trim();
    description = description.replace(ENV, '');
  }
  const d = DEFAULT.exec(description);
  if (d) {
    def = d[1]!.trim();
    description = description.replace(DEFAULT, '');
  }
  // commander's own default, where its help shows one (an option that takes a value); an empty list is none.
  const v: unknown = o.defaultValue;
  if (def === undefined && v !== undefined && (o.required || o.optional)) {
    if (o.defaultValueDescription) def = o.defaultValueDescription;
    else if (typeof v === 'string' || typeof v === 'number') def = String(v);
    else if (!(Array.isArray(v) && v.length === 0)) def = JSON.stringify(v);
  }
  return {
    flags: o.flags,
    description: description.trim(),
    ...(def !== undefined ? { default: def } : {}),
    ...(env !== undefined ? { env } : {}),
    ...(o.argChoices ? { choices: o.argChoices } : {}),
    required: o.mandatory,
  };
}

function argumentDoc(a: Argument): ArgumentDoc {
  const name = `${a.name()}${a.variadic ? '...' : ''}`;
  return {
    usage: a.required ? `<${name}>` : `[${name}]`,
    description: a.description ?? '',
    ...(a.argChoices ? { choices: a.argChoices } : {}),
  };
}

const isHelp = (o: Option) => o.long === '--help';

function commandDoc(cmd: Command, path: string[]): CommandDoc {
  const help = cmd.createHelp();
  const name = ['cssctl', ...path].join(' ');
  return {
    path,
    name,
    // commander's own line: `cssctl scans wait [options] <scan_id>` (it names the parents).
    usage: help.commandUsage(cmd),
    description: cmd.description(),
    arguments: cmd.registeredArguments.map(argumentDoc),
    options: help
      .visibleOptions(cmd)
      .filter((o) => !isHelp(o))
      .map(optionDoc),
    formats: path.length > 0 && cmd.commands.length === 0 ? outputsOf(cmd) : [],
    examples: examplesOf(cmd),
    commands: help.visibleCommands(cmd).map((c) => commandDoc(c, [...path, c.name()])),
  };
}

/** The reference of a program built by buildProgram (src/cli.ts). */
export function readReference(program: Command): Reference {
  return { version: program.version() ?? '', root: commandDoc(program, []) };
}

/** Every command, the program first, each before the commands under it. */
export function allCommands(root: CommandDoc): CommandDoc[] {
  return [root, ...root.commands.flatMap(allCommands)];
}
