import { InvalidArgumentError, type Command } from 'commander';
import { completeWith } from '../../completion/meta.js';
import { parseSeverity, collectSeverities } from '../findings/severity.js';
import { addListOptions, type Wire } from '../shared/action.js';
import { addConnectionFilter } from '../shared/filters.js';
import { readsEveryFinding } from '../shared/streams.js';
import { SCAN_REPORT_OFFER } from '../../report/registry.js';
import { addIgnoreOptions, addReportOptions } from '../findings/options.js';

function positiveSeconds(value: string): number {
  const n = Number(value.trim());
  if (value.trim() === '' || !Number.isFinite(n) || n <= 0)
    throw new InvalidArgumentError('expected a number of seconds above 0');
  return n;
}

/** The options `scans wait` and `scans create --wait` share. */
function addWaitOptions(cmd: Command): Command {
  // A comparison with a baseline holds two whole sets.
  return addReportOptions(addIgnoreOptions(readsEveryFinding(cmd, '--baseline')))
    .option(
      '--fail-on <severity>',
      'exit 10 if the scan has a finding at or above this severity',
      parseSeverity,
    )
    .option('--wait-timeout <seconds>', 'give up waiting after this long (exit 9)', positiveSeconds)
    .option(
      '--severity <s[,s...]>',
      'narrow the findings report (-o and --report formats) to these severities; never the gate',
      collectSeverities,
    )
    .option('--no-step-summary', 'do not append a summary to $GITHUB_STEP_SUMMARY')
    .option(
      '--baseline <ref>',
      'gate and report on what changed since a scan id, latest (the previous completed scan) or a file',
    );
}

export function registerScans(program: Command, wire: Wire): void {
  const scans = program.command('scans').description('scans of connections, and waiting for them');
  const create = addWaitOptions(
    scans
      .command('create')
      .description('start a scan of a connection; with --wait, wait for it and report')
      .requiredOption('--connection <alias>', 'the connection to scan')
      .option('--wait', 'wait until the scan is final, then report'),
  ).action(wire(async () => (await import('./create.js')).create, SCAN_REPORT_OFFER));
  addListOptions(
    addConnectionFilter(scans.command('list'), 'scans')
      .description('list scans, newest first')
      .option('--status <status>', 'only scans with this status: queued, running, completed or failed'),
  ).action(wire(async () => (await import('./list.js')).list));
  scans
    .command('get')
    .description('show one scan')
    .argument('<scan_id>')
    .action(wire(async () => (await import('./get.js')).get));
  const wait = addWaitOptions(
    scans
      .command('wait')
      .description('wait until a scan is final, then print its summary or its findings report')
      .argument('<scan_id>'),
  ).action(wire(async () => (await import('./wait.js')).wait, SCAN_REPORT_OFFER));
  // A wait's report may read every finding (and a wait takes seconds: a relaunch's ~30 ms are nothing beside it).
  readsEveryFinding(create, '--wait');
  readsEveryFinding(wait);
  // Completion offers -o values from the tree: the formats these commands offer (src/completion/meta.ts).
  for (const cmd of [create, wait]) completeWith(cmd, { outputs: SCAN_REPORT_OFFER.names });
}
