import { SCAN_STATUSES, type Scan } from '../../api/findings-types.js';
import { listScans } from '../../api/findings.js';
import { idOfObject } from '../../api/paginate.js';
import type { Context } from '../../core/context.js';
import { UsageError } from '../../core/errors.js';
import { pagedList } from '../../report/sources/pages.js';
import { list as listOutput, type Result } from '../../report/result.js';
import { scanColumns } from '../../report/scan-fields.js';
import { filteredList, itemFilter } from '../../report/sources/filter.js';
import type { OptionsOf } from '../shared/define.js';
import type { listCommand } from './list.command.js';

/** What `scans list` takes (list.command.ts). */
export type ScansListOptions = OptionsOf<typeof listCommand>;

/**
 * `--status`, case-insensitive, one of the four the service knows; anything else is a usage error, found
 * before any request (the service would answer it with a 422, exit 7).
 */
export function scanStatus(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const status = raw.trim().toLowerCase();
  if (!(SCAN_STATUSES as readonly string[]).includes(status))
    throw new UsageError(`invalid --status "${raw}": use one of ${SCAN_STATUSES.join(', ')}`);
  return status;
}

export async function list(ctx: Context, opts: ScansListOptions): Promise<Result> {
  const status = scanStatus(opts.status);
  const client = await ctx.api();
  const read = {
    fetch: (offset: number, limit: number | undefined) => listScans(client, { limit, offset, status }),
    idOf: (s: Scan) => idOfObject(s, 'scan_id', 'id'),
  };
  // --connection: the service cannot filter scans by it; cssctl does, while it pages.
  const filter = itemFilter({ connection: opts.connection });
  return {
    output: listOutput(
      await pagedList<Scan>(ctx, opts, {
        noun: 'scans',
        command: 'scans list',
        columns: scanColumns,
        ...read,
        ...(filter ? { source: filteredList(ctx, opts, read, filter, 'scans') } : {}),
      }),
    ),
  };
}
