import { InvalidArgumentError, type Command } from 'commander';
import type { Context } from '../../core/context.js';
import { OUTPUT_FORMATS } from '../../core/config.js';
import { LIST_OFFER, unofferedFormat, type Offer } from '../../core/output/offer.js';

export type MakeContext = (cmd: Command) => Context;

/** A verb module: `run` does the work with the context and the verb's own options and arguments. */
export type Verb<O> = (ctx: Context, opts: O, args: string[]) => Promise<void>;

/**
 * Wires a commander action to a verb that is imported only when the command runs, so start-up loads
 * nothing but the command tree. The formats a command offers are checked here, before the verb can send
 * anything: an -o it does not offer is a usage error (commands that print no list or record offer the
 * standard formats, for their messages). Only the flags are read: a profile's saved `output` that a command
 * does not offer falls back to the command's default when the verb chooses (chooseFormat).
 */
export function lazy<O>(makeContext: MakeContext, load: () => Promise<Verb<O>>, offer: Offer = LIST_OFFER) {
  return async (...params: unknown[]): Promise<void> => {
    const cmd = params[params.length - 1] as Command;
    const ctx = makeContext(cmd);
    const flag = ctx.globals.json ? 'json' : ctx.globals.output?.toLowerCase();
    if (
      flag !== undefined &&
      (OUTPUT_FORMATS as readonly string[]).includes(flag) &&
      !offer.names.includes(flag)
    ) {
      throw unofferedFormat(flag, offer, commandPath(cmd));
    }
    const verb = await load();
    // A variadic last argument (`<paths...>`) takes every remaining word.
    const declared = cmd.registeredArguments;
    const args = declared.at(-1)?.variadic ? cmd.args : cmd.args.slice(0, declared.length);
    await verb(ctx, cmd.opts<O & object>(), args);
  };
}

/** "findings list", for messages. */
export function commandPath(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c?.parent; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

export function positiveInt(value: string): number {
  const n = wholeNumber(value);
  if (n === undefined || n < 1) throw new InvalidArgumentError('expected a positive whole number');
  return n;
}

export function nonNegativeInt(value: string): number {
  const n = wholeNumber(value);
  if (n === undefined) throw new InvalidArgumentError('expected a whole number, 0 or more');
  return n;
}

/** Digits only, and small enough to be sent exactly (9007199254740993 would become …992, 1e23 "1e+23"). */
function wholeNumber(value: string): number | undefined {
  const text = value.trim();
  if (!/^\d+$/.test(text)) return undefined;
  const n = Number(text);
  if (!Number.isSafeInteger(n))
    throw new InvalidArgumentError(`expected a whole number up to ${Number.MAX_SAFE_INTEGER}`);
  return n;
}

export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

export function addListOptions(cmd: Command): Command {
  return cmd
    .option('--limit <n>', 'items per page', positiveInt)
    .option('--offset <n>', 'start at this item', nonNegativeInt)
    .option('--all', 'follow every page (streams; memory stays flat)');
}
