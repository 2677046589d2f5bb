import { getFinding } from '../../api/findings.js';
import type { Context } from '../../core/context.js';
import { UsageError } from '../../core/errors.js';
import { LIST_OFFER, chooseFormat, type FieldLine } from '../../core/output/index.js';
import { record, type Result } from '../../report/result.js';
import { withFingerprint } from '../../report/fingerprint.js';
import type { ArgsOf } from '../shared/define.js';
import type { getCommand } from './get.command.js';

/** The key/value lines of one finding in a table. */
export const findingFields: FieldLine[] = [
  ['ID', 'id'],
  ['SEVERITY', 'severity'],
  ['TITLE', 'title'],
  ['RESOURCE', 'resource'],
  ['CONNECTION', 'connection_alias'],
  ['SCAN', 'scan_id'],
  ['STATUS', 'status'],
  ['RULE', 'rule_id'],
  ['CHECK', 'check_id'],
  ['CREATED', 'created_at'],
  ['FINGERPRINT', 'fingerprint'],
  ['DESCRIPTION', 'description'],
  ['REMEDIATION', 'remediation'],
];

export function findingIdArg(raw: string | undefined): string {
  const id = raw?.trim() ?? '';
  if (!id) throw new UsageError('a finding id is required');
  if (/[\s/?#]/.test(id) || id === '.' || id === '..') throw new UsageError(`invalid finding id "${raw}"`);
  return id;
}

/** `findings get <id>`: the finding with its fingerprint (cli-contract.md §8). */
export async function get(ctx: Context, _opts: object, [given]: ArgsOf<typeof getCommand>): Promise<Result> {
  const id = findingIdArg(given);
  const format = chooseFormat(await ctx.settings(), LIST_OFFER, 'findings get');
  const client = await ctx.api();
  const finding = await getFinding(client, id);
  return record(withFingerprint(finding), format, findingFields);
}
