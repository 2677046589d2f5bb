import { InvalidArgumentError, type Command } from 'commander';
import type { Context } from '../../core/context.js';
import { OUTPUT_FORMATS } from '../../core/config.js';
import { ExitError, UsageError } from '../../core/errors.js';
import { completeWith, completionOf } from '../../completion/meta.js';
import { LIST_OFFER, WIDE_LIST_OFFER, unofferedFormat, type Offer } from '../../core/output/offer.js';
import { jqOptions } from '../../jq/flags.js';

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
export function lazy<O>(makeContext: MakeContext, load: () => Promise<Verb<O>>, given?: Offer) {
  return async (...params: unknown[]): Promise<void> => {
    const cmd = params[params.length - 1] as Command;
    const ctx = makeContext(cmd);
    // Without an Offer of its own, a command offers what it declares for completion (a list command:
    // addListOptions), else the standard formats.
    const declared = completionOf(cmd);
    const offer =
      given ??
      (declared && 'outputs' in declared ? { names: declared.outputs, default: 'table' } : LIST_OFFER);
    const flag = ctx.globals.json ? 'json' : ctx.globals.output?.toLowerCase();
    if (flag !== undefined && !offer.names.includes(flag)) {
      // A format no command has is named with this command's choices only, not every format cssctl knows.
      if (!(OUTPUT_FORMATS as readonly string[]).includes(flag))
        throw new UsageError(
          `invalid output format "${ctx.globals.output ?? flag}": use one of ${offer.names.join(', ')}`,
        );
      throw unofferedFormat(flag, offer, commandPath(cmd));
    }
    // --jq: the filter is compiled (exit 2 if it does not) before the verb can send anything.
    const jq = jqOptions(ctx.globals, commandPath(cmd));
    // The filter runs on what is printed; --output-file writes the report itself, which the filter never saw:
    // the file would hold the unfiltered document and stdout nothing, with exit 0.
    if (jq && cmd.opts<{ outputFile?: string }>().outputFile !== undefined)
      throw new UsageError(
        '--jq filters what is printed on stdout and cannot be used with --output-file: redirect stdout instead',
        { hint: `${commandPath(cmd)} … --jq '<filter>' > <file>` },
      );
    const stage = jq
      ? await import('../../jq/stage.js').then((m) =>
          m.installJq(ctx.io, jq, m.jqMode(ctx.globals.output, ctx.globals.json)),
        )
      : undefined;
    const verb = await load();
    // A variadic last argument (`<paths...>`) takes every remaining word.
    const argDefs = cmd.registeredArguments;
    const args = argDefs.at(-1)?.variadic ? cmd.args : cmd.args.slice(0, argDefs.length);
    try {
      await verb(ctx, cmd.opts<O & object>(), args);
    } catch (err) {
      // A command that wrote its whole output and then set its exit code (a scan that failed, --fail-on met):
      // the output is still filtered and printed; its exit code stands. Otherwise nothing half-read is.
      if (stage && err instanceof ExitError) await stage.end({ gate: false });
      else stage?.abandon();
      throw err;
    }
    await stage?.end();
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
  cmd
    .option('--limit <n>', 'items per page', positiveInt)
    .option('--offset <n>', 'start at this item', nonNegativeInt)
    .option('--all', 'follow every page (streams; memory stays flat)')
    .option(
      '--columns <names>',
      'table or csv columns in this order: column names, any field or dotted path (id,scan_id,details.region), or all',
    );
  // A list offers -o wide too (lazy() and completion read this).
  return completeWith(cmd, { outputs: WIDE_LIST_OFFER.names });
}
