import { Option, type Command } from 'commander';
import { completeWith } from '../../completion/meta.js';
import { addListOptions, type Wire } from '../shared/action.js';
import { addFindingFilters } from '../shared/filters.js';
import { readsEveryFinding } from '../shared/streams.js';
import { FINDINGS_OFFER } from '../../report/registry.js';
import { addIgnoreOptions, addReportOptions } from './options.js';
import { collectSeverities, collectStates, parseSeverity } from './severity.js';
import { SUMMARY_OFFER } from './summary-offer.js';

export function registerFindings(program: Command, wire: Wire): void {
  const findings = program.command('findings').description('security findings of the workspace');
  // Completion offers -o values from the tree: the formats this command offers (src/completion/meta.ts).
  const list = addListOptions(
    addFindingFilters(addReportOptions(addIgnoreOptions(findings.command('list'))))
      .description('list findings, most severe first when several severities are asked for')
      .option(
        '--severity <s[,s...]>',
        'only these severities: critical, high, medium, low, info (repeatable)',
        collectSeverities,
      )
      .option('--scan <scan_id>', 'only the findings of this scan'),
  ).action(wire(async () => (await import('./list.js')).list, FINDINGS_OFFER));
  completeWith(list, { outputs: FINDINGS_OFFER.names });
  // findings summary (src/commands/findings/summary.ts): counts with a bar per row.
  const summary = addFindingFilters(findings.command('summary'))
    .description('count findings by severity, connection, rule or status, with a bar per row')
    .addOption(
      new Option('--by <grouping>', 'what to count by').choices(['severity', 'connection', 'rule', 'status']),
    )
    .option('--scan <scan_id>', 'only the findings of this scan')
    .option('--severity <s[,s...]>', 'only these severities (repeatable)', collectSeverities)
    // The ignore file applies (cli-contract.md §8): accepted risks are counted apart, not in the groups.
    .option(
      '--ignore-file <path>',
      'the ignore file (default: .cssctl-ignore.yaml here or in a parent folder) (env: CSSCTL_IGNORE_FILE)',
    )
    .option('--no-ignore', 'read no ignore file: accepted risks count as the others')
    .action(wire(async () => (await import('./summary.js')).summary, SUMMARY_OFFER));
  completeWith(summary, { outputs: SUMMARY_OFFER.names });
  const diff = addFindingFilters(addReportOptions(addIgnoreOptions(findings.command('diff'))))
    .description('compare two sets of findings by fingerprint: new, updated, unchanged, fixed')
    .requiredOption(
      '--base <ref>',
      "a scan id, latest (the previous completed scan of the head's connection) or a file",
    )
    .requiredOption(
      '--head <ref>',
      'a scan id or a file (findings list -o json|ndjson, or a SARIF log cssctl wrote)',
    )
    .option(
      '--severity <s[,s...]>',
      'only show these severities: critical, high, medium, low, info (never the gate)',
      collectSeverities,
    )
    .option('--state <s[,s...]>', 'only show these states: new, updated, unchanged, fixed', collectStates)
    .option(
      '--fail-on <severity>',
      'exit 10 if a new finding, or one that rose, is at or above this severity',
      parseSeverity,
    )
    .action(wire(async () => (await import('./diff.js')).diff, FINDINGS_OFFER));
  completeWith(diff, { outputs: FINDINGS_OFFER.names });
  // Two whole sets compared.
  readsEveryFinding(diff);
  findings
    .command('ignore')
    .description('accept the risk of findings: append an entry per finding to the ignore file')
    .argument('<finding_id...>')
    .option('--reason <text>', 'why the risk is accepted (required)')
    .option('--expires <date>', 'YYYY-MM-DD, <n>d or never (default: 90d)')
    .option(
      '--ignore-file <path>',
      'the ignore file (default: .cssctl-ignore.yaml here or in a parent folder) (env: CSSCTL_IGNORE_FILE)',
    )
    .action(wire(async () => (await import('./ignore.js')).ignore));
  findings
    .command('get')
    .description('show one finding, with its fingerprint')
    .argument('<finding_id>')
    .action(wire(async () => (await import('./get.js')).get));
}
