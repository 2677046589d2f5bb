import { InvalidArgumentError, type Command } from 'commander';
import type { Command as TypedCommand, OptionValues } from '@commander-js/extra-typings';
import { completeWith } from '../../completion/meta.js';
import { WIDE_LIST_OFFER, type Offer } from '../../core/output/offer.js';
import type { Verb } from '../../report/result.js';
import { readsEveryFinding } from './streams.js';

export type { Verb } from '../../report/result.js';

/**
 * How a command's action reaches its verb: the front end that builds the command tree (src/cli/wire.ts) gives
 * it. `load` imports the verb's module only when the command runs, so start-up loads nothing but the command
 * tree; `offer` is the formats the command offers (-o), checked before the verb can send anything.
 */
export type Wire = (<O, A extends string[]>(load: () => Promise<Verb<O, A>>, offer?: Offer) => Action) & {
  /**
   * A command that is a front end of its own, run in the terminal's place (`cssctl mcp`: the MCP server over
   * stdio). Commands sit below the front ends, so they name it; the front end that built the tree starts it.
   */
  frontEnd(name: FrontEnd): Action;
};

export type Action = (...params: unknown[]) => Promise<void>;

/** The front ends a command can start: `mcp` (src/mcp/). */
export type FrontEnd = 'mcp';

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

/**
 * A list's options (--limit, --offset, --all, --columns), declared once: a list offers -o wide too, and --all
 * reads every page (the launcher relaunches it with the export settings: streams.ts).
 */
export function withListOptions<A extends unknown[], O extends OptionValues, G extends OptionValues>(
  cmd: TypedCommand<A, O, G>,
) {
  const list = cmd
    .option('--limit <n>', 'items per page', positiveInt)
    .option('--offset <n>', 'start at this item', nonNegativeInt)
    .option('--all', 'follow every page (streams; memory stays flat)')
    .option(
      '--columns <names>',
      'table or csv columns in this order: column names, any field or dotted path (id,scan_id,details.region), or all',
    );
  return completeWith(readsEveryFinding(list, '--all'), { outputs: WIDE_LIST_OFFER.names });
}
