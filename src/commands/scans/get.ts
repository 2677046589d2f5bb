import { getScan } from '../../api/findings.js';
import type { Context } from '../../core/context.js';
import { LIST_OFFER, chooseFormat, writeObject } from '../../core/output/index.js';
import { scanFields, scanShown } from '../../report/scan-fields.js';
import { scanIdArg } from './wait.js';

export async function get(ctx: Context, _opts: object, args: string[]): Promise<void> {
  const id = scanIdArg(args[0]);
  const format = chooseFormat(await ctx.settings(), LIST_OFFER, 'scans get');
  const client = await ctx.api();
  const scan = await getScan(client, id);
  const shown = format === 'table' ? scanShown(scan) : (scan as Record<string, unknown>);
  await writeObject(ctx.io, format, shown, scanFields);
}
