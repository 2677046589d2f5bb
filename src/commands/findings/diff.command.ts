import { completeWith } from '../../completion/meta.js';
import { FINDINGS_OFFER } from '../../report/registry.js';
import { defineVerb } from '../shared/define.js';
import { withFindingFilters } from '../shared/filters.js';
import { readsEveryFinding } from '../shared/streams.js';
import { withFailOn, withIgnoreOptions, withReportOptions, withSeverity } from './options.js';
import { collectStates } from './severity.js';

export const diffCommand = defineVerb('diff', (cmd) => {
  const diff = withFailOn(
    withSeverity(
      withFindingFilters(withReportOptions(withIgnoreOptions(cmd)))
        .description('compare two sets of findings by fingerprint: new, updated, unchanged, fixed')
        .requiredOption(
          '--base <ref>',
          "a scan id, latest (the previous completed scan of the head's connection) or a file",
        )
        .requiredOption(
          '--head <ref>',
          'a scan id or a file (findings list -o json|ndjson, or a SARIF log cssctl wrote)',
        ),
      'only show these severities: critical, high, medium, low, info (never the gate)',
    ).option('--state <s[,s...]>', 'only show these states: new, updated, unchanged, fixed', collectStates),
    'exit 10 if a new finding, or one that rose, is at or above this severity',
  );
  // Two whole sets compared: the launcher gives it the export settings (streams.ts).
  return readsEveryFinding(completeWith(diff, { outputs: FINDINGS_OFFER.names }));
});
