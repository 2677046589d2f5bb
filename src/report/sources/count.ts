// How many findings of one severity a scan has, for the gate: the service's `total` of a `limit=1` query, or,
// when the answer gives none it can be trusted for, every finding read and counted. A count that cannot be
// made is an error (exit 1), never a pass (cli-contract.md §2).
import type { Severity } from '../../api/findings-types.js';
import { listFindings } from '../../api/findings.js';
import type { IO } from '../../core/io.js';
import { CliError } from '../../core/errors.js';
import type { ApiClient } from '../../core/http/client.js';
import { readPages } from './pages.js';
import { ofSeverity } from './severities.js';

export async function countFindings(
  ctx: { io: IO },
  client: ApiClient,
  scanId: string,
  severity: Severity,
): Promise<number> {
  const first = await listFindings(client, { scanId, severity, limit: 1 });
  if (first.total !== undefined) return first.total;
  if (first.items.length === 0 && !first.invalidTotal) return 0;
  // No total to trust: the findings themselves are counted, every page of them.
  const pager = readPages(
    ctx.io,
    (offset, limit) => listFindings(client, { scanId, severity, offset, limit }),
    { label: `${severity} findings of scan ${scanId}` },
  );
  const keep = ofSeverity(severity, ctx);
  let n = 0;
  for await (const f of pager) if (f !== null && typeof f === 'object' && keep(f)) n++;
  if (pager.incomplete !== undefined)
    throw new CliError(
      `cannot decide --fail-on: the service gave no usable total of ${severity} findings of scan ${scanId}, and its list could not be read to the end (${pager.incomplete})`,
    );
  return n;
}
