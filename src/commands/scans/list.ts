import type { Scan } from '../../api/findings-types.js';
import { listScans } from '../../api/findings.js';
import { idOfObject } from '../../api/paginate.js';
import type { Context } from '../../core/context.js';
import { UsageError } from '../../core/errors.js';
import { runList, type ListOptions } from '../../report/sources/pages.js';
import { scanColumns } from '../../report/scan-fields.js';

export interface ScansListOptions extends ListOptions {
  status?: string;
}

export async function list(ctx: Context, opts: ScansListOptions): Promise<void> {
  const status = opts.status?.trim().toLowerCase();
  if (opts.status !== undefined && !/^[a-z_-]+$/.test(status ?? ''))
    throw new UsageError(
      `invalid --status "${opts.status}": a word such as queued, running, completed, failed`,
    );
  const client = await ctx.api();
  await runList<Scan>(ctx, opts, {
    noun: 'scans',
    command: 'scans list',
    columns: scanColumns,
    fetch: (offset, limit) => listScans(client, { limit, offset, status }),
    idOf: (s) => idOfObject(s, 'scan_id', 'id'),
  });
}
