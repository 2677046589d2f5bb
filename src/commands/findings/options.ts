// The options several commands share, each declared once, typed so what a verb's definition adds flows into its
// run function's options (src/commands/shared/define.ts): the ignore file's (cli-contract.md §8), the report
// outputs (§9), --severity, --fail-on and --scan.
import { InvalidArgumentError } from 'commander';
import type { Command, OptionValues } from '@commander-js/extra-typings';
import { parseReportSpec, type ReportSpec } from '../../report/report-spec.js';
import { collectSeverities, parseSeverity } from './severity.js';

/** `--ignore-file <path>`: for every command the ignore file applies to, and `findings ignore`, which writes it. */
export function withIgnoreFile<A extends unknown[], O extends OptionValues, G extends OptionValues>(
  cmd: Command<A, O, G>,
) {
  return cmd.option(
    '--ignore-file <path>',
    'the ignore file (default: .cssctl-ignore.yaml here or in a parent folder) (env: CSSCTL_IGNORE_FILE)',
  );
}

/** `--ignore-file` and `--no-ignore`; `noIgnore` says what reading none means for this command. */
export function withIgnore<A extends unknown[], O extends OptionValues, G extends OptionValues>(
  cmd: Command<A, O, G>,
  noIgnore = 'read no ignore file',
) {
  return withIgnoreFile(cmd).option('--no-ignore', noIgnore);
}

/** The ignore file's flags for the commands that list findings: --ignore-file, --no-ignore, --show-ignored. */
export function withIgnoreOptions<A extends unknown[], O extends OptionValues, G extends OptionValues>(
  cmd: Command<A, O, G>,
) {
  return withIgnore(cmd).option(
    '--show-ignored',
    'keep ignored findings in the output, with their reason and expiry',
  );
}

function collectReports(value: string, previous: ReportSpec[] = []): ReportSpec[] {
  try {
    return parseReportSpec(value, previous);
  } catch (err) {
    throw new InvalidArgumentError((err as Error).message.replace(/^invalid --report "[^"]*": /, ''));
  }
}

/** `--output-file` and `--report` (cli-contract.md §9), for the commands that write findings reports. */
export function withReportOptions<A extends unknown[], O extends OptionValues, G extends OptionValues>(
  cmd: Command<A, O, G>,
) {
  return cmd
    .option('--output-file <path>', 'write the output to this file (atomically) instead of stdout')
    .option(
      '--report <format=path>',
      'also write the findings in this format to this file, from the same read (repeatable)',
      collectReports,
    );
}

/** `--severity <s[,s...]>`: severities, each once, most severe first; what they narrow is the command's to say. */
export function withSeverity<A extends unknown[], O extends OptionValues, G extends OptionValues>(
  cmd: Command<A, O, G>,
  description: string,
) {
  return cmd.option('--severity <s[,s...]>', description, collectSeverities);
}

/** `--fail-on <severity>`: the gate (exit 10); what meets it is the command's to say. */
export function withFailOn<A extends unknown[], O extends OptionValues, G extends OptionValues>(
  cmd: Command<A, O, G>,
  description: string,
) {
  return cmd.option('--fail-on <severity>', description, parseSeverity);
}

/** `--scan <scan_id>`: only the findings of one scan. */
export function withScan<A extends unknown[], O extends OptionValues, G extends OptionValues>(
  cmd: Command<A, O, G>,
) {
  return cmd.option('--scan <scan_id>', 'only the findings of this scan');
}
