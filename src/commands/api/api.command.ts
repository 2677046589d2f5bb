import { completeWith } from '../../completion/meta.js';
import { collect } from '../shared/action.js';
import { defineVerb } from '../shared/define.js';
import { readsEveryFinding } from '../shared/streams.js';
import { API_OFFER } from './offer.js';

export const apiCommand = defineVerb('api', (cmd) => {
  const api = cmd
    .description('make an authenticated request to /api/v1<path> and print the JSON answer')
    .argument('<path>', 'e.g. /connections or /findings?severity=high')
    .option(
      '-X, --method <method>',
      'HTTP method (default GET; POST with -f/--input; always GET with --paginate)',
    )
    .option(
      '-f, --field <key=value>',
      'a body field, or a query parameter with GET and --paginate (repeatable; key:=<json> for a non-string)',
      collect,
      [] as string[],
    )
    .option('--input <file>', "request body from a JSON file ('-' for stdin)")
    .option('--paginate', 'read every limit/offset page with GET and print every item as one array');
  // Completion offers -o values from the tree: the formats this command offers (src/completion/meta.ts).
  return readsEveryFinding(completeWith(api, { outputs: API_OFFER.names }), '--paginate');
});
