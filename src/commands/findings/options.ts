import type { Command } from 'commander';

/** The ignore file's flags (cli-contract.md §8), for the commands it applies to. */
export function addIgnoreOptions(cmd: Command): Command {
  return cmd
    .option(
      '--ignore-file <path>',
      'the ignore file (default: .cssctl-ignore.yaml here or in a parent folder)',
    )
    .option('--no-ignore', 'read no ignore file')
    .option('--show-ignored', 'keep ignored findings in the output, with their reason and expiry');
}
