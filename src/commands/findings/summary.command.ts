import { completeWith } from '../../completion/meta.js';
import { defineVerb, Option } from '../shared/define.js';
import { withFindingFilters } from '../shared/filters.js';
import { withIgnore, withScan, withSeverity } from './options.js';
import { SUMMARY_OFFER } from './summary-offer.js';

/** findings summary (summary.ts): counts with a bar per row. */
export const summaryCommand = defineVerb('summary', (cmd) =>
  completeWith(
    // The ignore file applies (cli-contract.md §8): accepted risks are counted apart, not in the groups.
    withIgnore(
      withSeverity(
        withScan(
          withFindingFilters(cmd)
            .description('count findings by severity, connection, rule or status, with a bar per row')
            .addOption(
              new Option('--by <grouping>', 'what to count by').choices([
                'severity',
                'connection',
                'rule',
                'status',
              ] as const),
            ),
        ),
        'only these severities (repeatable)',
      ),
      'read no ignore file: accepted risks count as the others',
    ),
    { outputs: SUMMARY_OFFER.names },
  ),
);
