// `cssctl findings summary [--by severity|connection|rule|status]` (cli-contract.md §9).
import { SEVERITIES, type Finding } from '../../api/findings-types.js';
import { getScan, listFindings } from '../../api/findings.js';
import type { Context } from '../../core/context.js';
import { CliError, UsageError } from '../../core/errors.js';
import { chooseFormat } from '../../core/output/index.js';
import { SUMMARY_OFFER } from './summary-offer.js';
import { SummaryCounter, type SummaryBy } from '../../report/summary-view.js';
import type { Result } from '../../report/result.js';
import { readPages } from '../../report/sources/pages.js';
import { ruleIdOf } from '../../report/fingerprint.js';
import { loadIgnore, reportIgnore } from '../../report/ignore/index.js';
import { itemFilter } from '../../report/sources/filter.js';
import type { OptionsOf } from '../shared/define.js';
import type { summaryCommand } from './summary.command.js';

export { SUMMARY_OFFER };

/** What `findings summary` takes (summary.command.ts). */
export type SummaryOptions = OptionsOf<typeof summaryCommand>;

const KEY_OF: Record<SummaryBy, (f: Record<string, unknown>) => string> = {
  severity: (f) => (typeof f.severity === 'string' ? f.severity.toLowerCase() : 'unknown'),
  connection: (f) => (typeof f.connection_alias === 'string' ? f.connection_alias : ''),
  rule: (f) => ruleIdOf(f as Finding),
  status: (f) => (typeof f.status === 'string' ? f.status : ''),
};

export async function summary(ctx: Context, opts: SummaryOptions): Promise<Result> {
  const by = opts.by ?? 'severity';
  const scanId = opts.scan?.trim();
  if (opts.scan !== undefined && !scanId) throw new UsageError('--scan must not be empty');
  const format = chooseFormat(await ctx.settings(), SUMMARY_OFFER, 'findings summary');
  // The ignore file (cli-contract.md §8) is checked before any request (exit 2); accepted risks are left out
  // of the counts and counted on their own.
  const rules = loadIgnore(ctx, opts);
  const client = await ctx.api();
  const severities = opts.severity ?? [...SEVERITIES];
  const counter = new SummaryCounter(by, KEY_OF[by]);
  // --connection, --status: the service cannot count by them, so every finding is read and cssctl counts.
  const filter = itemFilter(opts);

  let ignored = 0;
  let read = 0;
  let matched = 0;
  if (by === 'severity' && filter === undefined && (rules === undefined || rules.file.entries.length === 0)) {
    // One request per severity: its total (limit=1). With entries in an ignore file, which findings they accept
    // (or, expired, count again) can only be known by reading them: every finding is read, as for the other
    // groupings; an ignore file with no entry changes no count.
    const answers = await Promise.all(
      severities.map(async (severity) => ({
        severity,
        page: await listFindings(client, { limit: 1, severity, scanId }),
      })),
    );
    for (const { severity, page } of answers) {
      if (page.total === undefined)
        throw new CliError(`the service did not give a total for ${severity} findings; cannot count them`);
      counter.add({ severity }, page.total);
    }
  } else {
    // Each severity asked for is a row, as its limit=1 total makes one, even when none is left to count.
    if (by === 'severity') for (const severity of severities) counter.add({ severity }, 0);
    // Every finding, streamed page by page (one severity after the other when --severity names some).
    for (const severity of opts.severity ?? [undefined]) {
      const pager = readPages<Finding>(
        ctx.io,
        (offset, limit) => listFindings(client, { limit, offset, severity, scanId }),
        { label: severity && `${severity} findings` },
      );
      for await (const page of pager.pages())
        for (const f of page) {
          if (!f || typeof f !== 'object') continue;
          read++;
          if (filter && !filter.keep(f)) continue;
          matched++;
          if (rules?.check(f).info) ignored++;
          else counter.add(f);
        }
    }
  }
  const result = { ...counter.summary(), ...(rules ? { ignored } : {}) };
  // No findings for a scan: that scan must exist (a mistyped id is exit 5, not an empty summary).
  if (scanId && result.total === 0 && ignored === 0) await getScan(client, scanId);
  return {
    output: { kind: 'summary', value: result, format },
    // Every finding was read unless --severity narrowed it; without --scan, those of the whole workspace.
    finish: async () => {
      if (filter && format === 'table')
        ctx.io.hint(
          `Counted the findings that match ${filter.flags}: ${matched.toLocaleString('en-US')} of ${read.toLocaleString('en-US')} read (filtered by cssctl, not by the service)`,
        );
      return {
        text: await reportIgnore(ctx, rules, {
          format,
          complete: opts.severity === undefined && filter === undefined,
          workspace: scanId === undefined,
        }),
      };
    },
  };
}
