// The findings of the workspace or of one scan, as a stream: one query per severity when several are asked
// for (merged most severe first), else the pages of one query.
import type { Finding, Severity } from '../../api/findings-types.js';
import { getScan, listFindings } from '../../api/findings.js';
import { idOfObject } from '../../api/paginate.js';
import type { Context } from '../../core/context.js';
import type { ApiClient } from '../../core/http/client.js';
import type { ListSource } from '../../core/output/index.js';
import { afterEmpty } from '../stages.js';
import { allPages, pagesSource, type ListOptions } from './pages.js';
import { allSeverities, severityPage } from './severities.js';

export interface FindingsQuery extends ListOptions {
  /** Most severe first, each once; empty for every severity. */
  severities: readonly Severity[];
  scanId?: string;
}

/**
 * `findings list`: a page or `--all`. With a scan id, an empty answer is checked against GET /scans/{id}, so a
 * scan that does not exist is exit 5, not an empty list (cli-contract.md §2).
 */
export function findingsSource(ctx: Context, client: ApiClient, q: FindingsQuery): ListSource<Finding> {
  const { scanId } = q;
  let source: ListSource<Finding>;
  if (q.severities.length > 1) {
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
