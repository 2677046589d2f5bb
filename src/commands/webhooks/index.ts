import type { Command } from 'commander';
import { completeWith } from '../../completion/meta.js';
import type { Offer } from '../../core/output/offer.js';
import { addListOptions, type Wire } from '../shared/action.js';

/** replay prints a line per delivery, or its outcomes as JSON; no table or CSV. */
const REPLAY_OFFER: Offer = { names: ['table', 'json', 'ndjson'], default: 'table' };

export function registerWebhooks(program: Command, wire: Wire): void {
  const webhooks = program
    .command('webhooks')
    .description('register, receive, verify, forward, save, replay and trigger signed event deliveries');
  webhooks
    .command('create')
    .description('register a receiver URL for events')
    .requiredOption('--url <url>', 'https:// receiver (http:// only for loopback hosts)')
    .requiredOption(
      '--events <events>',
      'comma-separated: scan.completed, scan.failed, finding.critical, finding.high, compliance.score_dropped, or all',
    )
    .option(
      '--secret-stdin',
      'read the signing secret from standard input (else CSSCTL_WEBHOOK_SECRET, else generated)',
    )
    .action(wire(async () => (await import('./create.js')).create));
  addListOptions(
    webhooks.command('list').description('list registered webhooks (secrets are never shown)'),
  ).action(wire(async () => (await import('./list.js')).list));
  webhooks
    .command('delete')
    .description('delete a webhook')
    .argument('<id>', 'webhook id, from cssctl webhooks list')
    .action(wire(async () => (await import('./delete.js')).remove));
  webhooks
    .command('verify')
    .description('check an X-Service-Signature value against a raw payload (exit 0 valid, 1 invalid)')
    .requiredOption('--signature <value>', 'the X-Service-Signature header value, sha256=<hex>')
    .option('--payload-file <path>', 'the raw payload (default: standard input)')
    .option('--secret-file <path>', 'file holding the signing secret (default: CSSCTL_WEBHOOK_SECRET)')
    .action(wire(async () => (await import('./verify.js')).verify));
  webhooks
    .command('listen')
    .description('receive deliveries locally: verify, print, and optionally save and forward them')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--port <port>', 'port to listen on (0: any free port)', '8088')
    .option('--path <path>', 'path deliveries are posted to', '/')
    .option('--forward-to <url>', 'relay each verified delivery, untouched, to this URL')
    .option(
      '--events <events>',
      'handle only these events (comma-separated, or all); others are answered 200 and dropped',
    )
    .option('--save <dir>', 'write each verified, new delivery to a JSON file in this folder (for replay)')
    .option(
      '--tolerance <duration>',
      'answer 400 to a payload timestamp further than this from now (30s, 5m)',
    )
    .option('--forward-duplicates', 'relay a body already received in this run again (default: answer 200)')
    .option('--print-secret', 'print the signing secret in use and exit')
    .option('--secret-file <path>', 'file holding the signing secret (default: CSSCTL_WEBHOOK_SECRET)')
    .action(wire(async () => (await import('./listen.js')).listen));
  const replay = webhooks
    .command('replay')
    .description('send saved deliveries again, oldest first, byte for byte, to a receiver')
    .argument('<paths...>', 'files or folders written by webhooks listen --save')
    .requiredOption('--to <url>', 'the receiver (https://, or http:// for loopback hosts)')
    .option('--resign', 'sign with the current secret instead of sending the saved signature')
    .option('--secret-file <path>', 'with --resign: file holding the secret (default: CSSCTL_WEBHOOK_SECRET)')
    .action(wire(async () => (await import('./replay.js')).replay, REPLAY_OFFER));
  completeWith(replay, { outputs: REPLAY_OFFER.names });
  webhooks
    .command('trigger')
    .description('send a correctly signed sample delivery to a receiver, to test it')
    .argument(
      '<event>',
      'scan.completed, scan.failed, finding.critical, finding.high or compliance.score_dropped',
    )
    .requiredOption('--url <url>', 'the receiver (https://, or http:// for loopback hosts)')
    .option('--secret-file <path>', 'file holding the signing secret (default: CSSCTL_WEBHOOK_SECRET)')
    .action(wire(async () => (await import('./trigger.js')).trigger));
}
