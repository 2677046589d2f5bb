import type { Context } from '../../core/context.js';
import { listConnections, type Connection } from '../../api/connections.js';
import { pagedList } from '../../report/sources/pages.js';
import { list as listOutput, type Result } from '../../report/result.js';
import type { Column } from '../../core/format.js';
import { idOfObject } from '../../api/paginate.js';
import type { OptionsOf } from '../shared/define.js';
import type { listCommand } from './list.command.js';

export const connectionColumns: Column<Connection>[] = [
  { header: 'ALIAS', field: 'alias', value: (c) => c.alias, style: (t, _c, color) => color.bold(t) },
  { header: 'PROVIDER', field: 'provider', value: (c) => c.provider },
  { header: 'STATUS', field: 'status', value: (c) => c.status, optional: true },
  {
    header: 'ID',
    field: 'id',
    value: (c) => c.id,
    optional: true,
    style: (t, _c, color) => color.dim(t),
    keep: true,
    drop: 1,
  },
  {
    header: 'CREATED',
    field: 'created_at',
    value: (c) => c.created_at,
    optional: true,
    keep: true,
    time: true,
  },
];

export async function list(ctx: Context, opts: OptionsOf<typeof listCommand>): Promise<Result> {
  const client = await ctx.api();
  return {
    output: listOutput(
      await pagedList(ctx, opts, {
        noun: 'connections',
        command: 'connections list',
        columns: connectionColumns,
        fetch: (offset, limit) => listConnections(client, { limit, offset: offset || undefined }),
        idOf: (c) => idOfObject(c, 'id', 'alias'),
      }),
    ),
  };
}
