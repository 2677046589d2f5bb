import { completeWith } from '../../completion/meta.js';
import type { Offer } from '../../core/output/offer.js';
import { defineVerb } from '../shared/define.js';

/** replay prints a line per delivery, or its outcomes as JSON; no table or CSV. */
export const REPLAY_OFFER: Offer = { names: ['table', 'json', 'ndjson'], default: 'table' };

export const replayCommand = defineVerb('replay', (cmd) =>
  // Completion offers -o values from the tree: the formats this command offers (src/completion/meta.ts).
  completeWith(
    cmd
      .description('send saved deliveries again, oldest first, byte for byte, to a receiver')
      .argument('<paths...>', 'files or folders written by webhooks listen --save')
      .requiredOption('--to <url>', 'the receiver (https://, or http:// for loopback hosts)')
      .option('--resign', 'sign with the current secret instead of sending the saved signature')
      .option(
        '--secret-file <path>',
        'with --resign: file holding the secret (default: CSSCTL_WEBHOOK_SECRET)',
      ),
    { outputs: REPLAY_OFFER.names },
  ),
);
