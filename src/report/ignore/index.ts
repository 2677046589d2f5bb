// The ignore file for a command: its flags, loaded (and checked: exit 2) before any request.
import type { Context } from '../../core/context.js';
import { loadIgnoreFile } from './file.js';
import type { Finding } from '../../api/findings-types.js';
import type { ListSource } from '../../core/output/index.js';
import { IgnoreRules, applyIgnore, applyIgnoreToPage } from './stage.js';
import { reportFormat } from '../registry.js';

export interface IgnoreOptions {
  ignoreFile?: string;
  /** false with --no-ignore. */
  ignore?: boolean;
  showIgnored?: boolean;
}

/**
 * The rules of the ignore file that applies, or undefined when none does (or --no-ignore): found from the
 * context's working folder (ctx.cwd), never the process's.
 */
export function loadIgnore(
  ctx: Pick<Context, 'env' | 'clock' | 'cwd'>,
  opts: IgnoreOptions,
): IgnoreRules | undefined {
  const file = loadIgnoreFile(opts, ctx.env, ctx.cwd);
  return file === undefined ? undefined : new IgnoreRules(file, ctx.clock.now());
}

/**
 * Whether a format keeps ignored findings: those whose descriptor says so always (src/report/registry.ts: junit,
 * html, ocsf), the others with --show-ignored.
 */
export function keepsIgnored(format: string | undefined, show: boolean | undefined): boolean {
  return reportFormat(format)?.keepsIgnored === true || show === true;
}

/**
 * Whether one read must keep ignored findings (marked) for some of its destinations: stdout's format or any
 * --report. Each destination then leaves out what its own format does not keep (the exporter), so that
 * `--report junit=…` has its skipped test cases whatever -o is, and `-o junit --report sarif=…` gives code
 * scanning no alert for an accepted risk.
 */
export function anyKeepsIgnored(
  format: string | undefined,
  reports: readonly { format: string }[] | undefined,
  show: boolean | undefined,
): boolean {
  return keepsIgnored(format, show) || (reports ?? []).some((r) => keepsIgnored(r.format, show));
}

export { IgnoreRules, applyIgnore, ignoredOf } from './stage.js';

/** A list source through the ignore stage (the source's page hint and resume command kept). */
export function withIgnore(
  source: ListSource<Finding>,
  rules: IgnoreRules | undefined,
  format: string,
  show: boolean | undefined,
  reports?: readonly { format: string }[],
): ListSource<Finding> {
  if (rules === undefined) return source;
  const keep = anyKeepsIgnored(format, reports, show);
  const shownHere = keepsIgnored(format, show);
  // What stdout's format leaves out, for the table's page hint: the page read `shown + left out` items.
  let left = 0;
  const stage = {
    keep,
    show: show === true,
    onIgnored: () => {
      if (!shownHere) left++;
    },
  };
  const out: ListSource<Finding> = {
    [Symbol.asyncIterator]: () => applyIgnore(source, rules, stage)[Symbol.asyncIterator](),
    // The page hint then says it (`4 shown, 1 ignored by … (--no-ignore to show them)`), and the count line
    // after the report does not say it again.
    leftOut: () =>
      left > 0
        ? {
            count: left,
            why: `ignored by ${rules.file.display} (--no-ignore to show them)`,
            told: () => rules.countTold(),
          }
        : undefined,
  };
  // Page by page when the source has pages (what --columns reads the first page's fields from).
  if (source.pages) {
    const pages = source.pages.bind(source);
    out.pages = async function* () {
      for await (const batch of pages()) yield applyIgnoreToPage(batch, rules, stage);
    };
  }
  if (source.page) out.page = source.page.bind(source);
  if (source.resume) out.resume = source.resume.bind(source);
  return out;
}

/**
 * After a report: the count left out and the entries' warnings and notices (messages); under -o github the
 * expired entries also as workflow warnings on the file and line (cli-contract.md §8), returned as the text for
 * stdout that follows the report.
 */
export async function reportIgnore(
  ctx: Pick<Context, 'io'>,
  rules: IgnoreRules | undefined,
  opts: {
    format?: string;
    complete: boolean;
    workspace?: boolean;
    showIgnored?: boolean;
    connection?: string;
  },
): Promise<string | undefined> {
  if (rules === undefined) return undefined;
  rules.report(ctx.io, {
    complete: opts.complete,
    workspace: opts.workspace,
    shown: keepsIgnored(opts.format, opts.showIgnored),
    connection: opts.connection,
  });
  if (opts.format !== 'github') return undefined;
  const { escapeData, escapeProperty } = await import('../formats/github.js');
  return rules
    .messages({ complete: false })
    .warnings.map(
      (w) => `::warning file=${escapeProperty(rules.file.display)},line=${w.line}::${escapeData(w.text)}\n`,
    )
    .join('');
}
