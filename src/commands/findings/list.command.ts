import { completeWith } from '../../completion/meta.js';
import { FINDINGS_OFFER } from '../../report/registry.js';
import { withListOptions } from '../shared/action.js';
import { defineVerb } from '../shared/define.js';
import { withFindingFilters } from '../shared/filters.js';
import { withIgnoreOptions, withReportOptions, withScan, withSeverity } from './options.js';

export const listCommand = defineVerb('list', (cmd) =>
  // Completion offers -o values from the tree: the formats this command offers (src/completion/meta.ts).
  completeWith(
    withListOptions(
      withScan(
        withSeverity(
          withFindingFilters(withReportOptions(withIgnoreOptions(cmd))).description(
            'list findings, most severe first when several severities are asked for',
          ),
          'only these severities: critical, high, medium, low, info (repeatable)',
        ),
      ),
    ),
    { outputs: FINDINGS_OFFER.names },
  ),
);
