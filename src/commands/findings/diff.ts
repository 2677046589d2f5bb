import type { Finding, Scan } from '../../api/findings-types.js';
import type { Context } from '../../core/context.js';
import { chooseFormat } from '../../core/output/index.js';
import { diffReport } from '../../report/diff-report.js';
import { workspaceAbout } from '../../report/about.js';
import { checkDestinations } from '../../report/report-spec.js';
import { FINDINGS_OFFER } from '../../report/registry.js';
import { scanFindings } from '../../report/sources/findings.js';
import { describeRef, finalScan, loadBase, openFileRefs, parseRef } from '../../report/sources/refs.js';
import { resumeCommand } from '../../core/resume.js';
import { loadIgnore, reportIgnore } from '../../report/ignore/index.js';
import type { Result } from '../../report/result.js';
import { filterStage, itemFilter } from '../../report/sources/filter.js';
import type { OptionsOf } from '../shared/define.js';
import type { diffCommand } from './diff.command.js';

/** What `findings diff` takes (diff.command.ts). */
export type DiffOptions = OptionsOf<typeof diffCommand>;

/** `findings diff --base <ref> --head <ref>`: base held, head streamed through it, one report, one gate. */
export async function diff(ctx: Context, opts: DiffOptions): Promise<Result> {
  const baseRef = parseRef(opts.base, '--base');
  const headRef = parseRef(opts.head, '--head');
  const format = chooseFormat(await ctx.settings(), FINDINGS_OFFER, 'findings diff');
  const rules = loadIgnore(ctx, opts);
  checkDestinations({ outputFile: opts.outputFile, reports: opts.report }, ctx.cwd);
  const resume = resumeCommand(ctx.argv, []);
  // --connection, --status: both sides are narrowed before they are compared (counts and gate included), so a
  // finding whose status left the filter's is fixed, one that entered it new.
  const filter = itemFilter(opts);
  const keep = filter?.keep;
  // Files are read whole before any request (exit 2 naming them): a base file into the index it becomes, a
  // head file checked item by item (it is streamed again when compared).
  const fileBase =
    baseRef.kind === 'file'
      ? await loadBase(ctx, () => ctx.api(), baseRef, undefined, '--base', resume, keep)
      : undefined;
  await openFileRefs(headRef);
  let headScan: Scan | undefined;
  let head: AsyncIterable<Finding>;
  if (headRef.kind === 'scan') {
    const client = await ctx.api();
    headScan = await finalScan(client, headRef.id, '--head');
    head = scanFindings(ctx, client, headScan.scan_id, [], resume);
  } else if (headRef.kind === 'file') {
    head = headRef.items!;
  } else {
    throw new Error('--head latest is refused by parseRef');
  }
  const base = fileBase ?? (await loadBase(ctx, () => ctx.api(), baseRef, headScan, '--base', resume, keep));
  if (filter) head = filterStage(head, filter);
  if (base.label === undefined)
    ctx.io.notice(
      `no completed scan of connection ${headScan?.connection_alias ?? '?'} before ${headScan?.scan_id ?? 'the head'}: every finding is new`,
    );
  const report = diffReport(ctx, base.index, head, {
    format,
    failOn: opts.failOn,
    states: opts.state,
    severities: opts.severity,
    resume,
    ignore: rules,
    showIgnored: opts.showIgnored,
    outputFile: opts.outputFile,
    reports: opts.report,
    about: {
      ...(await workspaceAbout(ctx)),
      subject: `diff of ${base.label ?? 'nothing'} → ${headScan ? `scan ${headScan.scan_id}` : describeRef(headRef)}`,
      fixSeen: headScan && (headScan.completed_at ?? headScan.created_at),
    },
  });
  return {
    output: { kind: 'findings', source: report.source, options: report.options },
    finish: async () => {
      const result = await report.conclude();
      const text = await reportIgnore(ctx, rules, {
        format,
        complete: filter === undefined,
        showIgnored: opts.showIgnored,
        connection: headScan?.connection_alias,
      });
      return {
        text,
        gate: result.gate && {
          gate: result.gate,
          subject: headScan ? `scan ${headScan.scan_id}` : describeRef(headRef),
          what: 'new or raised findings',
        },
        // What the head was compared with (`scan scn_1`, a file), or null when `latest` found no earlier scan.
        data: { counts: { ...result.counts.n }, base: base.label ?? null },
      };
    },
  };
}
