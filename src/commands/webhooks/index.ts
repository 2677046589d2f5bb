import type { Command } from 'commander';
import { addListOptions, lazy, type MakeContext } from '../shared/action.js';

export function registerWebhooks(program: Command, ctx: MakeContext): void {
  const webhooks = program
    .command('webhooks')
    .description('register, receive, verify, forward and trigger signed event deliveries');
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
    .action(lazy(ctx, async () => (await import('./create.js')).create));
  addListOptions(
    webhooks.command('list').description('list registered webhooks (secrets are never shown)'),
  ).action(lazy(ctx, async () => (await import('./list.js')).list));
  webhooks
    .command('delete')
    .description('delete a webhook')
    .argument('<id>', 'webhook id, from cssctl webhooks list')
    .action(lazy(ctx, async () => (await import('./delete.js')).remove));
  webhooks
    .command('verify')
    .description('check an X-Service-Signature value against a raw payload (exit 0 valid, 1 invalid)')
    .requiredOption('--signature <value>', 'the X-Service-Signature header value, sha256=<hex>')
    .option('--payload-file <path>', 'the raw payload (default: standard input)')
    .option('--secret-file <path>', 'file holding the signing secret (default: CSSCTL_WEBHOOK_SECRET)')
    .action(lazy(ctx, async () => (await import('./verify.js')).verify));
  webhooks
    .command('listen')
    .description('receive deliveries locally: verify, print, and optionally forward them')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--port <port>', 'port to listen on (0: any free port)', '8088')
    .option('--path <path>', 'path deliveries are posted to', '/')
    .option('--forward-to <url>', 'relay each verified delivery, untouched, to this URL')
    .option('--print-secret', 'print the signing secret in use and exit')
    .option('--secret-file <path>', 'file holding the signing secret (default: CSSCTL_WEBHOOK_SECRET)')
    .action(lazy(ctx, async () => (await import('./listen.js')).listen));
  webhooks
    .command('trigger')
    .description('send a correctly signed sample delivery to a receiver, to test it')
    .argument(
      '<event>',
      'scan.completed, scan.failed, finding.critical, finding.high or compliance.score_dropped',
    )
    .requiredOption('--url <url>', 'the receiver (https://, or http:// for loopback hosts)')
    .option('--secret-file <path>', 'file holding the signing secret (default: CSSCTL_WEBHOOK_SECRET)')
    .action(lazy(ctx, async () => (await import('./trigger.js')).trigger));
}
