// The terminal's wiring of a command's action to its verb (the Wire of src/commands/shared/action.ts): the -o
// the command offers is checked and --jq compiled before the verb can send anything; the verb runs and returns
// its result; render() writes it; its outcome becomes the exit code here (outcomeError), nowhere else.
import type { Command } from 'commander';
import { completionOf } from '../completion/meta.js';
import type { FrontEnd, Verb, Wire } from '../commands/shared/action.js';
import { commandPath } from '../commands/shared/action.js';
import { handOver } from '../commands/shared/define.js';
import type { CallContexts, Context } from '../core/context.js';
import { OUTPUT_FORMATS } from '../core/config.js';
import { UsageError } from '../core/errors.js';
import { LIST_OFFER, unofferedFormat, type Offer } from '../core/output/offer.js';
import { jqOptions } from '../jq/flags.js';
import { outcomeError, render } from './render.js';

export type MakeContext = (cmd: Command) => Context & CallContexts;

export function wireVerbs(makeContext: MakeContext): Wire {
  const verbs =
    <O, A extends string[]>(load: () => Promise<Verb<O, A>>, given?: Offer) =>
    async (...params: unknown[]): Promise<void> => {
      const cmd = params[params.length - 1] as Command;
      const ctx = makeContext(cmd);
      // Without an Offer of its own, a command offers what it declares for completion (a list command:
      // withListOptions), else the standard formats.
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
      if (jq && cmd.getOptionValue('outputFile') !== undefined)
        throw new UsageError(
          '--jq filters what is printed on stdout and cannot be used with --output-file: redirect stdout instead',
          { hint: `${commandPath(cmd)} … --jq '<filter>' > <file>` },
        );
      const stage = jq
        ? await import('../jq/stage.js').then((m) =>
            m.installJq(ctx.io, jq, m.jqMode(ctx.globals.output, ctx.globals.json), ctx.signal, ctx.env),
          )
        : undefined;
      const verb = await load();
      // What commander parsed, as the verb's definition declares it (addVerb checks the run function against it;
      // test/unit/argv-options.test.ts checks what arrives).
      const { opts, args } = handOver(cmd);
      let failure;
      try {
        failure = outcomeError(await render(ctx, await verb(ctx, opts as O, args as A)));
      } catch (err) {
        stage?.abandon();
        throw err;
      }
      // A command that wrote its whole output and came to a "no" (a scan that failed, --fail-on met): the output
      // is still filtered and printed, and its exit code stands.
      await stage?.end(failure ? { gate: false } : undefined);
      if (failure) throw failure;
    };
  return Object.assign(verbs, {
    // `cssctl mcp`: the MCP server (src/mcp/serve.ts) with this command's context, until its client leaves or
    // SIGINT/SIGTERM; loaded only here, so no other command loads a byte of it.
    frontEnd:
      (name: FrontEnd) =>
      async (...params: unknown[]): Promise<void> => {
        const cmd = params[params.length - 1] as Command;
        const ctx = makeContext(cmd);
        if (name === 'mcp') await (await import('../mcp/serve.js')).serve(ctx, cmd.opts());
      },
  });
}
