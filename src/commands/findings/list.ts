import type { Context } from '../../core/context.js';
import { UsageError } from '../../core/errors.js';
import { chooseFormat, parseColumns } from '../../core/output/index.js';
import { checkDestinations } from '../../report/exporter.js';
import type { Result } from '../../report/result.js';
import { workspaceAbout } from '../../report/about.js';
import { FINDINGS_OFFER } from '../../report/registry.js';
import { findingsSource } from '../../report/sources/findings.js';
import { loadIgnore, reportIgnore, withIgnore } from '../../report/ignore/index.js';
import { findingColumnsShowingIgnored } from '../../report/columns.js';
import { itemFilter } from '../../report/sources/filter.js';
import type { OptionsOf } from '../shared/define.js';
import type { listCommand } from './list.command.js';

/** What `findings list` takes (list.command.ts). */
export type FindingsListOptions = OptionsOf<typeof listCommand>;

/** `findings list`: the findings source (a page or --all, one query per severity) → the exporter. */
export async function list(ctx: Context, opts: FindingsListOptions): Promise<Result> {
  const scanId = opts.scan?.trim();
  if (opts.scan !== undefined && !scanId) throw new UsageError('--scan must not be empty');
  const format = chooseFormat(await ctx.settings(), FINDINGS_OFFER, 'findings list');
  const rules = loadIgnore(ctx, opts);
  // --columns: what can be checked before any request is (exit 2); the fields it names are checked against the
  // first page (src/core/output/columns.ts).
  parseColumns(opts.columns, format);
  checkDestinations({ outputFile: opts.outputFile, reports: opts.report }, ctx.cwd);
  const client = await ctx.api();
  // --connection, --status: the service cannot filter by them; cssctl does, while it pages.
  const filter = itemFilter(opts);
  const source = findingsSource(ctx, client, { ...opts, severities: opts.severity ?? [], scanId, filter });
  const options = {
    format,
    outputFile: opts.outputFile,
    reports: opts.report,
    chosenColumns: opts.columns,
    columnsOption: true,
    showIgnored: opts.showIgnored,
    about: {
      ...(await workspaceAbout(ctx)),
      subject: scanId ? `findings of scan ${scanId}` : 'findings list',
    },
    ...(rules && opts.showIgnored ? { columns: () => findingColumnsShowingIgnored } : {}),
  };
  return {
    output: {
      kind: 'findings',
      source: withIgnore(source, rules, format, opts.showIgnored, opts.report),
      options,
    },
    finish: async () => ({
      // Only a read of every finding (of the workspace, or of one scan) can say an entry matched nothing; which
      // entries it could have seen is for the rules to say (docs/baselines.md).
      text: await reportIgnore(ctx, rules, {
        format,
        complete: opts.all === true && opts.severity === undefined && filter === undefined,
        workspace: scanId === undefined,
        showIgnored: opts.showIgnored,
      }),
      // The count the notice says (`12 findings ignored by …`), for a front end that says it itself (list_findings).
      data: { ignored: rules?.ignored ?? 0 },
    }),
  };
}
