// The findings of the workspace or of one scan, as a stream: one query per severity when several are asked
// for (merged most severe first), else the pages of one query.
import type { Finding, Severity } from '../../api/findings-types.js';
import { getScan, listFindings } from '../../api/findings.js';
import { idOfObject } from '../../api/paginate.js';
import type { Context } from '../../core/context.js';
import type { ApiClient } from '../../core/http/client.js';
import type { ListSource } from '../../core/output/index.js';
import { afterEmpty } from '../stages.js';
import { filterStage, filteredPage, type ItemFilter } from './filter.js';
import { allPages, pagesSource, type ListOptions } from './pages.js';
import { allSeverities, ofSeverity, severityPage } from './severities.js';

export interface FindingsQuery extends ListOptions {
  /** Most severe first, each once; empty for every severity. */
  severities: readonly Severity[];
  scanId?: string;
  /** `--connection`, `--status`: applied by cssctl while it pages. */
  filter?: ItemFilter;
}

/**
 * `findings list`: a page or `--all`. With a scan id, an empty answer is checked against GET /scans/{id}, so a
 * scan that does not exist is exit 5, not an empty list (cli-contract.md §2).
 */
export function findingsSource(ctx: Context, client: ApiClient, q: FindingsQuery): ListSource<Finding> {
  const { scanId, filter } = q;
  let source: ListSource<Finding>;
  if (filter && !q.all) {
    // One page of what the filter keeps: the service's pages are read until it is full.
    const segments = (q.severities.length > 0 ? q.severities : [undefined]).map((severity) => ({
      fetch: (offset: number, limit: number | undefined) =>
        listFindings(client, { limit, offset, severity, scanId }),
      ...(severity && q.severities.length > 1 ? { sane: ofSeverity(severity, ctx) } : {}),
    }));
    source = filteredPage(ctx, segments, filter, q, 'findings');
  } else if (q.severities.length > 1) {
    const fetch = (severity: Severity, offset: number, limit: number | undefined) =>
      listFindings(client, { limit, offset, severity, scanId });
    source = q.all ? allSeverities(ctx, q.severities, fetch, q) : severityPage(ctx, q.severities, fetch, q);
  } else {
    const severity = q.severities[0];
    source = pagesSource(
      ctx,
      q,
      {
        fetch: (offset, limit) => listFindings(client, { limit, offset, severity, scanId }),
        idOf: (f) => idOfObject(f),
      },
      'findings',
    );
  }
  if (filter && q.all) source = filterStage(source, filter, q.offset ?? 0);
  return scanId === undefined ? source : afterEmpty(source, async () => void (await getScan(client, scanId)));
}

/**
 * Every finding of a final scan (narrowed only by `--severity`), most severe first when several severities are
 * asked. A report is read whole: an interrupted one is redone by waiting again, which `resume` says.
 */
export function scanFindings(
  ctx: Context,
  client: ApiClient,
  scanId: string,
  severities: readonly Severity[],
  resume: string,
): ListSource<Finding> {
  const source =
    severities.length > 1
      ? allSeverities(
          ctx,
          severities,
          (severity, offset, limit) => listFindings(client, { scanId, severity, offset, limit }),
          {},
        )
      : allPages(
          ctx,
          {
            fetch: (offset, limit) =>
              listFindings(client, { scanId, severity: severities[0], offset, limit }),
            idOf: (f) => idOfObject(f),
          },
          {},
        );
  return {
    [Symbol.asyncIterator]: () => source[Symbol.asyncIterator](),
    resume: () => resume,
  };
}
