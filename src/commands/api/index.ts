import type { Command } from 'commander';
import { completeWith } from '../../completion/meta.js';
import { collect, type Wire } from '../shared/action.js';
import { readsEveryFinding } from '../shared/streams.js';
import { API_OFFER } from './offer.js';

export { API_OFFER };

export function registerApi(program: Command, wire: Wire): void {
  const api = program
    .command('api')
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
      [],
    )
    .option('--input <file>', "request body from a JSON file ('-' for stdin)")
    .option('--paginate', 'read every limit/offset page with GET and print every item as one array')
    .action(wire(async () => (await import('./api.js')).api, API_OFFER));
  // Completion offers -o values from the tree: the formats this command offers (src/completion/meta.ts).
  completeWith(api, { outputs: API_OFFER.names });
  readsEveryFinding(api, '--paginate');
}
