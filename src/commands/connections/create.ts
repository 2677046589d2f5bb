import type { Context } from '../../core/context.js';
import { UsageError } from '../../core/errors.js';
import { LIST_OFFER, chooseFormat } from '../../core/output/index.js';
import { record as recordOf, type Result } from '../../report/result.js';
import { createConnection } from '../../api/connections.js';
import { parseFields } from '../shared/fields.js';
import type { OptionsOf } from '../shared/define.js';
import type { createCommand } from './create.command.js';

/** What `connections create` takes (create.command.ts). */
export type CreateOptions = OptionsOf<typeof createCommand>;

export async function create(ctx: Context, opts: CreateOptions): Promise<Result> {
  const alias = opts.alias.trim();
  const provider = opts.provider.trim();
  if (!alias) throw new UsageError('--alias must not be empty');
  if (!provider) throw new UsageError('--provider must not be empty');
  const extra = parseFields(opts.set ?? [], '--set');
  for (const k of ['alias', 'provider']) {
    if (k in extra) throw new UsageError(`use --${k}, not --set ${k}=…`);
  }
  const client = await ctx.api();
  const format = chooseFormat(await ctx.settings(), LIST_OFFER, 'connections create');
  const created = await createConnection(client, { alias, provider, ...extra });
  // An answer that is not an object (a list, a string) is no connection to show.
  const record = created && typeof created === 'object' && !Array.isArray(created) ? created : undefined;
  ctx.io.success(
    `Created connection ${textOf(record?.alias) ?? alias} (${textOf(record?.provider) ?? provider})`,
  );
  return recordOf((record ?? { alias, provider }) as Record<string, unknown>, format);
}

function textOf(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}
