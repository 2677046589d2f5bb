import type { Context } from '../../core/context.js';
import type { Result } from '../../report/result.js';
import { UsageError } from '../../core/errors.js';
import { deleteWebhook } from '../../api/webhooks.js';
import { clean } from './common.js';
import type { ArgsOf } from '../shared/define.js';
import type { deleteCommand } from './delete.command.js';

export async function remove(
  ctx: Context,
  _opts: object,
  [given]: ArgsOf<typeof deleteCommand>,
): Promise<Result> {
  const id = (given ?? '').trim();
  if (!id) throw new UsageError('a webhook id is required (see cssctl webhooks list)');
  const client = await ctx.api();
  await deleteWebhook(client, id);
  ctx.io.notice(`${ctx.io.errColor.green('✓')} Deleted webhook ${clean(id)}`);
  return {};
}
