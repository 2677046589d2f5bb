import type { Context } from '../../core/context.js';
import { UsageError } from '../../core/errors.js';
import { writeObject } from '../../core/output.js';
import { createConnection } from '../../api/connections.js';
import { parseFields } from '../shared/fields.js';

export interface CreateOptions {
  alias: string;
  provider: string;
  set: string[];
}

export async function create(ctx: Context, opts: CreateOptions): Promise<void> {
  const alias = opts.alias.trim();
  const provider = opts.provider.trim();
  if (!alias) throw new UsageError('--alias must not be empty');
  if (!provider) throw new UsageError('--provider must not be empty');
  const extra = parseFields(opts.set ?? [], '--set');
  for (const k of ['alias', 'provider']) {
    if (k in extra) throw new UsageError(`use --${k}, not --set ${k}=…`);
  }
  const client = await ctx.api();
  const { output } = await ctx.settings();
  const created = await createConnection(client, { alias, provider, ...extra });
  ctx.io.notice(
    `${ctx.io.errColor.green('✓')} Created connection ${created?.alias ?? alias} (${created?.provider ?? provider})`,
  );
  await writeObject(ctx.io, output, (created ?? { alias, provider }) as Record<string, unknown>);
}
