import { InvalidArgumentError, type Command } from 'commander';
import { parseReportSpec, type ReportSpec } from '../../report/report-spec.js';

/** The ignore file's flags (cli-contract.md §8), for the commands it applies to. */
export function addIgnoreOptions(cmd: Command): Command {
  return cmd
    .option(
      '--ignore-file <path>',
      'the ignore file (default: .cssctl-ignore.yaml here or in a parent folder) (env: CSSCTL_IGNORE_FILE)',
    )
    .option('--no-ignore', 'read no ignore file')
    .option('--show-ignored', 'keep ignored findings in the output, with their reason and expiry');
}

function collectReports(value: string, previous: ReportSpec[] = []): ReportSpec[] {
  try {
    return parseReportSpec(value, previous);
  } catch (err) {
    throw new InvalidArgumentError((err as Error).message.replace(/^invalid --report "[^"]*": /, ''));
  }
}

/** `--output-file` and `--report` (cli-contract.md §9), for the commands that write findings reports. */
export function addReportOptions(cmd: Command): Command {
  return cmd
    .option('--output-file <path>', 'write the output to this file (atomically) instead of stdout')
    .option(
      '--report <format=path>',
      'also write the findings in this format to this file, from the same read (repeatable)',
      collectReports,
    );
}
