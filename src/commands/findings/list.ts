import type { Finding, Severity } from '../../api/findings-types.js';
import { listFindings } from '../../api/findings.js';
import { idOfObject } from '../../api/paginate.js';
import type { Context } from '../../core/context.js';
import { UsageError } from '../../core/errors.js';
import { chooseFormat, selectColumns, standardFormats, writeList } from '../../core/output/index.js';
import { writePages, type ListOptions } from '../shared/list.js';
import { findingColumns } from './columns.js';
import { FINDINGS_OFFER, loadFindingFormat } from './formats/index.js';
import { allSeverities, severityPage, type FetchSeverity } from './merge.js';

export interface FindingsListOptions extends ListOptions {
  /** Parsed and validated by commander (collectSeverities): most severe first, each once. */
  severity?: Severity[];
  scan?: string;
}

export async function list(ctx: Context, opts: FindingsListOptions): Promise<void> {
  const scanId = opts.scan?.trim();
  if (opts.scan !== undefined && !scanId) throw new UsageError('--scan must not be empty');
  const format = chooseFormat(await ctx.settings(), FINDINGS_OFFER, 'findings list');
  const columns = selectColumns(findingColumns, opts.columns, format);
  const formats = { ...standardFormats<Finding>(), ...(await loadFindingFormat(format)) };
  const client = await ctx.api();
  const fetch: FetchSeverity = (severity, offset, limit) =>
    listFindings(client, { limit, offset, severity, scanId });
  const severities = opts.severity ?? [];
  const chosen = opts.columns !== undefined;
  const out = {
    format,
    formats,
    columns,
    chosen,
    noun: 'findings',
    signal: ctx.signal,
    about: {
      workspace: (await ctx.settings()).workspace,
      subject: scanId ? `findings of scan ${scanId}` : 'findings list',
    },
  };

  if (severities.length > 1) {
    const source = opts.all
      ? allSeverities(ctx, severities, fetch, opts)
      : severityPage(ctx, severities, fetch, opts);
    await writeList(ctx.io, source, out);
    return;
  }
  const severity = severities[0];
  const spec = {
    fetch: (offset: number, limit: number) => listFindings(client, { limit, offset, severity, scanId }),
    idOf: (f: Finding) => idOfObject(f),
  };
  await writePages(ctx, opts, spec, out);
}
