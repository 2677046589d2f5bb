import { InvalidArgumentError } from 'commander';
import { completeWith } from '../../completion/meta.js';
import { defineVerb, Option } from '../shared/define.js';

/** `--fail-under <0-100>`: a score; anything else is exit 2 before any request. */
export function parseFailUnder(value: string): number {
  const text = value.trim();
  const n = Number(text);
  if (!/^\d+(\.\d+)?$/.test(text) || !Number.isFinite(n) || n > 100)
    throw new InvalidArgumentError('expected a score from 0 to 100');
  return n;
}

export const complianceCommand = defineVerb('compliance', (cmd) =>
  cmd
    .description(
      "the workspace's compliance score, its threshold and whether it is below; a CI gate with --fail-under",
    )
    .addOption(
      completeWith(
        new Option('--fail-under <score>', 'exit 10 when the score is below this (0–100)').argParser(
          parseFailUnder,
        ),
        ['50', '60', '70', '80', '90'],
      ),
    )
    .option('--no-step-summary', 'do not append a section to $GITHUB_STEP_SUMMARY'),
);
