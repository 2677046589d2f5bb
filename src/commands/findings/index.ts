import type { Command } from 'commander';
import { completeWith } from '../../completion/meta.js';
import { addListOptions, lazy, type MakeContext } from '../shared/action.js';
import { FINDINGS_OFFER } from '../../report/registry.js';
import { collectSeverities } from './severity.js';

export function registerFindings(program: Command, ctx: MakeContext): void {
  const findings = program.command('findings').description('security findings of the workspace');
  // Completion offers -o values from the tree: the formats this command offers (src/completion/meta.ts).
  const list = addListOptions(
    findings
      .command('list')
      .description('list findings, most severe first when several severities are asked for')
      .option(
        '--severity <s[,s...]>',
        'only these severities: critical, high, medium, low, info (repeatable)',
        collectSeverities,
      )
      .option('--scan <scan_id>', 'only the findings of this scan'),
  ).action(lazy(ctx, async () => (await import('./list.js')).list, FINDINGS_OFFER));
  completeWith(list, { outputs: FINDINGS_OFFER.names });
  findings
    .command('get')
    .description('show one finding, with its fingerprint')
    .argument('<finding_id>')
    .action(lazy(ctx, async () => (await import('./get.js')).get));
}
