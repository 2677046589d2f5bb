// Several severities: one query each, merged most severe first, each finding once (cli-contract.md §2).
// The merged list behaves as one list: --offset and --limit count across it, and a resumed --all starts at
// the severity it was on, with its offset, followed by those still to come.
import type { Finding, Severity } from '../../api/findings-types.js';
import { idOfObject, type Paginator, type Page } from '../../api/paginate.js';
import type { Context } from '../../core/context.js';
import type { PageInfo } from '../../core/format.js';
import type { ListSource } from '../../core/output/index.js';
import { resumeCommand } from '../../core/resume.js';
import { readPages } from './pages.js';

export type FetchSeverity = (
  severity: Severity,
  offset: number,
  limit: number | undefined,
) => Promise<Page<Finding>>;

interface MergeOptions {
  limit?: number;
  offset?: number;
}

/** Drops what a query for `severity` should not have returned (a service that ignores the filter). */
export function ofSeverity(severity: Severity, ctx: Pick<Context, 'io'>) {
  let warned = false;
  return (f: Finding): boolean => {
    const s = f !== null && typeof f === 'object' ? f.severity : undefined;
    const ok = typeof s !== 'string' || s.toLowerCase() === severity;
    if (!ok && !warned) {
      ctx.io.warn(
        `the service answered severity=${severity} with findings of another severity; they are left out`,
      );
      warned = true;
    }
    return ok;
  };
}

/** `--all` over several severities, streamed one severity after the other. */
export function allSeverities(
  ctx: Pick<Context, 'io' | 'argv'>,
  severities: readonly Severity[],
  fetch: FetchSeverity,
  opts: MergeOptions,
): ListSource<Finding> {
  let current = 0;
  let pager: Paginator<Finding> | undefined;
  return {
    async *[Symbol.asyncIterator]() {
      for (; current < severities.length; current++) {
        const severity = severities[current]!;
        const keep = ofSeverity(severity, ctx);
        pager = readPages<Finding>(ctx.io, (offset, limit) => fetch(severity, offset, limit), {
          limit: opts.limit,
          offset: current === 0 ? opts.offset : 0,
          label: `${severity} findings`,
        });
        for await (const f of pager) if (keep(f)) yield f;
      }
    },
    resume: () => {
      const left = severities.slice(current);
      if (left.length === 0) return undefined;
      const offset = pager?.position ?? opts.offset ?? 0;
      return resumeCommand(ctx.argv, [
        ['--severity', left.join(',')],
        ['--all'],
        ['--offset', String(offset)],
      ]);
    },
  };
}

/**
 * One page of the merged list: `--offset` and `--limit` count across the severities in order. Totals of the
 * severities the page did not reach are asked for (limit=1) only if the table's hint wants them.
 */
export function severityPage(
  ctx: Pick<Context, 'io' | 'argv'>,
  severities: readonly Severity[],
  fetch: FetchSeverity,
  opts: MergeOptions,
): ListSource<Finding> {
  const totals = new Map<Severity, number | undefined>();
  const userOffset = opts.offset ?? 0;
  return {
    async *[Symbol.asyncIterator]() {
      let skip = userOffset;
      let room = opts.limit;
      const seen = new Set<string>();
      for (const severity of severities) {
        if (room !== undefined && room <= 0) break;
        const page = await fetch(severity, skip, room);
        totals.set(severity, page.total);
        // The first answer without --limit sets the page size: the service's own default.
        room ??= page.limit ?? Math.max(page.items.length, 1);
        const keep = ofSeverity(severity, ctx);
        for (const f of page.items) {
          const id = idOfObject(f);
          if (!keep(f) || (id !== undefined && seen.has(id))) continue;
          if (id !== undefined) seen.add(id);
          if (room <= 0) break;
          room--;
          yield f;
        }
        // A page cut short by the service's cap while this severity has more: the merged page ends here
        // (moving on would leave a gap that --offset could not name).
        const more = page.total === undefined ? page.items.length > 0 : skip + page.items.length < page.total;
        if (room > 0 && more) break;
        skip = page.items.length > 0 ? 0 : Math.max(0, skip - (page.total ?? 0));
      }
    },
    async page(): Promise<PageInfo | undefined> {
      let total = 0;
      for (const severity of severities) {
        if (!totals.has(severity)) totals.set(severity, (await fetch(severity, 0, 1)).total);
        const t = totals.get(severity);
        if (t === undefined) return { offset: userOffset };
        total += t;
      }
      return { offset: userOffset, total };
    },
  };
}
