import { InvalidArgumentError } from 'commander';
import type { Command, OptionValues } from '@commander-js/extra-typings';
import { completeWith } from '../../completion/meta.js';
import { SCAN_REPORT_OFFER } from '../../report/registry.js';
import { defineVerb } from '../shared/define.js';
import { readsEveryFinding } from '../shared/streams.js';
import { withFailOn, withIgnoreOptions, withReportOptions, withSeverity } from '../findings/options.js';

function positiveSeconds(value: string): number {
  const n = Number(value.trim());
  if (value.trim() === '' || !Number.isFinite(n) || n <= 0)
    throw new InvalidArgumentError('expected a number of seconds above 0');
  return n;
}

/** The options `scans wait` and `scans create --wait` share. */
export function withWaitOptions<A extends unknown[], O extends OptionValues, G extends OptionValues>(
  cmd: Command<A, O, G>,
) {
  const wait = withSeverity(
    withFailOn(
      withReportOptions(withIgnoreOptions(cmd)),
      'exit 10 if the scan has a finding at or above this severity',
    ).option('--wait-timeout <seconds>', 'give up waiting after this long (exit 9)', positiveSeconds),
    'narrow the findings report (-o and --report formats) to these severities; never the gate',
  )
    .option('--no-step-summary', 'do not append a summary to $GITHUB_STEP_SUMMARY')
    .option(
      '--baseline <ref>',
      'gate and report on what changed since a scan id, latest (the previous completed scan) or a file',
    );
  // A comparison with a baseline holds two whole sets; a scan's report offers the report formats too (-o).
  return completeWith(readsEveryFinding(wait, '--baseline'), { outputs: SCAN_REPORT_OFFER.names });
}

export const waitCommand = defineVerb('wait', (cmd) =>
  // A wait's report may read every finding (and a wait takes seconds: a relaunch's ~30 ms are nothing beside it).
  readsEveryFinding(
    withWaitOptions(
      cmd
        .description('wait until a scan is final, then print its summary or its findings report')
        .argument('<scan_id>'),
    ),
  ),
);
