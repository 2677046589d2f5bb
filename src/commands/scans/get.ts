import { getScan } from '../../api/findings.js';
import type { Context } from '../../core/context.js';
import { LIST_OFFER, chooseFormat } from '../../core/output/index.js';
import { record, type Result } from '../../report/result.js';
import { scanFields, scanShown } from '../../report/scan-fields.js';
import { scanIdArg } from './wait.js';
import type { ArgsOf } from '../shared/define.js';
import type { getCommand } from './get.command.js';

export async function get(ctx: Context, _opts: object, [given]: ArgsOf<typeof getCommand>): Promise<Result> {
  const id = scanIdArg(given);
  const format = chooseFormat(await ctx.settings(), LIST_OFFER, 'scans get');
  const client = await ctx.api();
  const scan = await getScan(client, id);
  return record(format === 'table' ? scanShown(scan) : (scan as Record<string, unknown>), format, scanFields);
}
