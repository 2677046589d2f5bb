import type { Command } from 'commander';
import { completeWith } from '../../completion/meta.js';
import { API_OFFER } from './offer.js';
import { collect, lazy, type MakeContext } from '../shared/action.js';

// Kept in its own module, so api.ts and this file do not import each other.
export { API_OFFER } from './offer.js';

export function registerApi(program: Command, ctx: MakeContext): void {
  const api = program
    .command('api')
    .description('make an authenticated request to /api/v1<path> and print the JSON answer')
    .argument('<path>', 'e.g. /connections or /findings?severity=high')
    .option('-X, --method <method>', 'HTTP method (default GET, or POST with -f/--input)')
    .option(
      '-f, --field <key=value>',
      'a query parameter (GET) or body field (repeatable; key:=<json> for a non-string)',
      collect,
      [],
    )
    .option('--input <file>', "request body from a JSON file ('-' for stdin)")
    .option('--paginate', 'follow limit/offset pages and print every item as one array')
    .action(lazy(ctx, async () => (await import('./api.js')).api, API_OFFER));
  // Completion offers -o values from the tree: the formats this command offers (src/completion/meta.ts).
  completeWith(api, { outputs: API_OFFER.names });
}
