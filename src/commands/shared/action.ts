import { InvalidArgumentError, type Command } from 'commander';
import type { Context } from '../../core/context.js';
import { UsageError } from '../../core/errors.js';

export type MakeContext = (cmd: Command) => Context;

/** A verb module: `run` does the work with the context and the verb's own options and arguments. */
export type Verb<O> = (ctx: Context, opts: O, args: string[]) => Promise<void>;

/**
 * Wires a commander action to a verb that is imported only when the command runs, so start-up loads
 * nothing but the command tree. Output formats are checked here, before the verb can send anything:
 * `sarif` is for the commands that pass `{ sarif: true }` (findings) only.
 */
export function lazy<O>(
  makeContext: MakeContext,
  load: () => Promise<Verb<O>>,
  opts: { sarif?: boolean } = {},
) {
  return async (...params: unknown[]): Promise<void> => {
    const cmd = params[params.length - 1] as Command;
    const ctx = makeContext(cmd);
    // Only a flag can ask for sarif here (a saved profile cannot hold it); reading the flag alone keeps a
    // bad hand-edited profile value from breaking the commands that would fix it (config, logout).
    const s = await ctx.settings();
    if (!opts.sarif && s.sources.output === 'flag' && s.output === 'sarif') {
      throw new UsageError(`sarif output is available for findings only, not for "${cmd.name()}"`);
    }
    const verb = await load();
    await verb(ctx, cmd.opts<O & object>(), cmd.args.slice(0, cmd.registeredArguments.length));
  };
}

export function positiveInt(value: string): number {
  if (!/^\d+$/.test(value.trim()) || Number(value) < 1)
    throw new InvalidArgumentError('expected a positive whole number');
  return Number(value);
}

export function nonNegativeInt(value: string): number {
  if (!/^\d+$/.test(value.trim())) throw new InvalidArgumentError('expected a whole number, 0 or more');
  return Number(value);
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
