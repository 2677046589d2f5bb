import { createScan } from '../../api/findings.js';
import type { Scan } from '../../api/findings-types.js';
import type { Context } from '../../core/context.js';
import { UsageError } from '../../core/errors.js';
import { chooseFormat } from '../../core/output/index.js';
import { after, record, type Result } from '../../report/result.js';
import { scanFields, scanShown } from '../../report/scan-fields.js';
import { SCAN_REPORT_OFFER, isReportFormat } from '../../report/registry.js';
import { prepareReport, waitAndReport, waitCommand } from './wait.js';
import type { OptionsOf } from '../shared/define.js';
import type { createCommand } from './create.command.js';

/**
 * What `scans create` takes (create.command.ts); `onCreated` is told the scan as soon as it is created (a front
 * end that must know its id even if the wait is cancelled).
 */
export type CreateOptions = OptionsOf<typeof createCommand> & { onCreated?: (scan: Scan) => void };

export async function create(ctx: Context, opts: CreateOptions): Promise<Result> {
  const alias = opts.connection.trim();
  if (!alias) throw new UsageError('--connection must not be empty');
  const format = chooseFormat(await ctx.settings(), SCAN_REPORT_OFFER, 'scans create');
  if (!opts.wait) {
    const needsWait = [
      opts.failOn !== undefined && '--fail-on',
      opts.waitTimeout !== undefined && '--wait-timeout',
      opts.severity !== undefined && '--severity',
      opts.baseline !== undefined && '--baseline',
      opts.report !== undefined && '--report',
      opts.outputFile !== undefined && '--output-file',
      isReportFormat(format) && `-o ${format}`,
    ].filter(Boolean);
    if (needsWait.length > 0) throw new UsageError(`${needsWait.join(', ')} needs --wait`);
  }
  const prepared = opts.wait ? await prepareReport(ctx, opts) : {};
  const client = await ctx.api();
  const scan = await createScan(client, alias);
  opts.onCreated?.(scan);
  ctx.io.success(`Started scan ${scan.scan_id} of connection ${scan.connection_alias ?? alias}`);
  if (!opts.wait)
    return {
      ...record(format === 'table' ? scanShown(scan) : (scan as Record<string, unknown>), format, scanFields),
      ...after(() =>
        ctx.io.hint(`Follow it with: ${waitCommand(['scans', 'wait', scan.scan_id], scan.scan_id)}`),
      ),
    };
  return waitAndReport(ctx, client, scan, opts, format, prepared);
}
