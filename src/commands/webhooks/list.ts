import type { Context } from '../../core/context.js';
import { list as listOutput, type Result } from '../../report/result.js';
import type { Column } from '../../core/output.js';
import { listWebhooks, type Webhook } from '../../api/webhooks.js';
import { pagedList } from '../../report/sources/pages.js';
import type { OptionsOf } from '../shared/define.js';
import type { listCommand } from './list.command.js';

export const webhookColumns: Column<Webhook>[] = [
  { header: 'ID', field: 'id', value: (w) => w.id, style: (t, _w, color) => color.bold(t), keep: true },
  { header: 'URL', field: 'url', value: (w) => w.url, min: 24 },
  {
    header: 'EVENTS',
    field: 'events',
    value: (w) => (Array.isArray(w.events) ? w.events.join(',') : w.events),
  },
  {
    header: 'CREATED',
    field: 'created_at',
    value: (w) => w.created_at,
    optional: true,
    keep: true,
    time: true,
  },
];

/** Never shows a secret: listWebhooks drops one even if the service were to send it. */
export async function list(ctx: Context, opts: OptionsOf<typeof listCommand>): Promise<Result> {
  const client = await ctx.api();
  return {
    output: listOutput(
      await pagedList(ctx, opts, {
        noun: 'webhooks',
        columns: webhookColumns,
        fetch: (offset, limit) => listWebhooks(client, { limit, offset: offset || undefined }),
        idOf: (w) => (w.id ?? w.url) as string | undefined,
      }),
    ),
  };
}
