// How a verb declares its command: the options and arguments it takes, beside its run function
// (`<verb>.command.ts` next to `<verb>.ts`), typed by commander's own typed wrapper (@commander-js/extra-typings),
// so the options and arguments the run function gets are inferred from the declaration (OptionsOf, ArgsOf), not
// cast. The definition file imports nothing heavy: the noun's registrar (loaded on every run) imports it; the
// verb's module is imported only when it runs (Wire), and imports its definition for the types only.
import { Argument as BaseArgument, Option as BaseOption, type Command } from 'commander';
import type {
  Argument as TypedArgument,
  Command as TypedCommand,
  CommandUnknownOpts,
  Option as TypedOption,
} from '@commander-js/extra-typings';
import type { Verb } from '../../report/result.js';
import type { Offer } from '../../core/output/offer.js';
import type { Wire } from './action.js';

/**
 * Commander's Option and Argument classes as the typed wrapper declares them (it is `export * from 'commander'`
 * with these types: the same classes), so an option built with `new Option(…)` carries its type into the
 * command's. The wrapper's module itself is never loaded.
 */
export const Option = BaseOption as unknown as typeof TypedOption;
export const Argument = BaseArgument as unknown as typeof TypedArgument;

/** The command a verb's definition is given: made by its noun (`noun.command(name)`), nothing declared yet. */
export type NewCommand = TypedCommand;

/** Any command a definition returns. */
export type AnyCommand = CommandUnknownOpts;

/** A verb's command: its name, and what it declares (description, options, arguments) on the command made for it. */
export interface VerbDefinition<C extends AnyCommand = AnyCommand> {
  readonly name: string;
  readonly define: (cmd: NewCommand) => C;
}

export function defineVerb<C extends AnyCommand>(
  name: string,
  define: (cmd: NewCommand) => C,
): VerbDefinition<C> {
  return { name, define };
}

type CommandOf<D> = D extends VerbDefinition<infer C> ? C : D;

/** `true` (a flag given) may be `false` from another front end. */
type Widen<T> = T extends true ? boolean : T;

/**
 * What a verb's run function takes: the options its command declares, as commander gives them, and as another
 * front end (the MCP server, the GitHub Action) may: a flag's `true` may be `false`, and a `--no-x` flag, which
 * commander defaults to true, may be left out.
 */
export type OptionsOf<D> =
  CommandOf<D> extends TypedCommand<infer _A, infer O, infer _G> ? Flat<Loose<O>> : never;

type Loose<O> = { [K in keyof O as boolean extends O[K] ? K : never]?: O[K] } & {
  [K in keyof O as boolean extends O[K] ? never : K]: Widen<O[K]>;
};

/** One object type rather than an intersection (what an editor shows; what a type test compares). */
type Flat<T> = { [K in keyof T]: T[K] };

/**
 * Options whose default (`.default()`) the run function applies too, for a front end that gives none: optional.
 */
export type WithOwnDefaults<O, K extends keyof O> = Flat<Omit<O, K> & Partial<Pick<O, K>>>;

/** A variadic last argument (`<paths...>`) is spread: the verb gets every remaining word. */
type Spread<A extends unknown[]> = A extends [...infer H, infer L]
  ? [L] extends [string[]]
    ? [...H, ...L]
    : A
  : A;

/** The positional arguments a verb's run function takes, from its command's `.argument()` calls. */
export type ArgsOf<D> = CommandOf<D> extends TypedCommand<infer A, infer _O, infer _G> ? Spread<A> : never;

/**
 * Adds a verb to its noun: the command is made by the noun (it inherits its settings), declared by the verb's
 * definition, and its action loads the run function, whose options and arguments must be those the definition
 * declares (checked here, at compile time). The typed wrapper and commander's own types meet here only.
 */
export function addVerb<C extends AnyCommand>(
  parent: Command,
  def: VerbDefinition<C>,
  wire: Wire,
  load: () => Promise<Verb<OptionsOf<C>, ArgsOf<C>>>,
  offer?: Offer,
): Command {
  return addCommand(parent, def).action(wire(load, offer));
}

/**
 * The command of a definition added to its parent, without an action (a front end of its own, `cssctl mcp`,
 * gets one from the Wire). The typed wrapper and commander's own types meet here only: the same classes.
 */
export function addCommand(parent: Command, def: VerbDefinition, options?: { hidden?: boolean }): Command {
  return def.define(parent.command(def.name, options) as unknown as NewCommand) as unknown as Command;
}

/**
 * What a command's verb receives from commander once argv is parsed: its options and its positional arguments
 * (a variadic last argument spread). The one hand-over from commander to a verb (src/cli/wire.ts; the argv tests).
 * An option the command shares with its parent (`mcp config --allow-write`: `mcp` has it too) is the command's
 * however it was placed: commander gives it to the parent when it comes after the command's name too.
 */
export function handOver(cmd: Command): { opts: Record<string, unknown>; args: string[] } {
  const argDefs = cmd.registeredArguments;
  const args = argDefs.at(-1)?.variadic ? cmd.args : cmd.args.slice(0, argDefs.length);
  const opts = cmd.opts();
  const parent = cmd.parent?.parent ? cmd.parent : undefined;
  for (const option of cmd.options) {
    const key = option.attributeName();
    const own = cmd.getOptionValueSource(key);
    const shared = parent?.options.some((o) => o.long === option.long);
    if (shared && (own === undefined || own === 'default') && parent!.getOptionValueSource(key) === 'cli')
      opts[key] = parent!.getOptionValue(key);
  }
  return { opts, args };
}
