import { getScan } from '../../api/findings.js';
import type { Context } from '../../core/context.js';
import { LIST_OFFER, chooseFormat } from '../../core/output/index.js';
import { record, type Result } from '../../report/result.js';
import { scanFields } from '../../report/scan-fields.js';
import { scanIdArg } from './wait.js';

export async function get(ctx: Context, _opts: object, args: string[]): Promise<Result> {
  const id = scanIdArg(args[0]);
  const format = chooseFormat(await ctx.settings(), LIST_OFFER, 'scans get');
  const client = await ctx.api();
  const scan = await getScan(client, id);
  return record(scan as Record<string, unknown>, format, scanFields);
}
