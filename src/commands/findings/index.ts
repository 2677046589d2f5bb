import { Option, type Command } from 'commander';
import { completeWith } from '../../completion/meta.js';
import { addListOptions, lazy, type MakeContext } from '../shared/action.js';
import { FINDINGS_OFFER } from './formats/index.js';
import { collectSeverities } from './severity.js';
import { SUMMARY_OFFER } from './summary-offer.js';

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
  // findings summary (src/commands/findings/summary.ts): counts with a bar per row.
  const summary = findings
    .command('summary')
    .description('count findings by severity, connection, rule or status, with a bar per row')
    .addOption(
      new Option('--by <grouping>', 'what to count by').choices(['severity', 'connection', 'rule', 'status']),
    )
    .option('--scan <scan_id>', 'only the findings of this scan')
    .option('--severity <s[,s...]>', 'only these severities (repeatable)', collectSeverities)
    .action(lazy(ctx, async () => (await import('./summary.js')).summary, SUMMARY_OFFER));
  completeWith(summary, { outputs: SUMMARY_OFFER.names });
}
