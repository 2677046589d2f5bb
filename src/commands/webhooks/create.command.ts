import { defineVerb } from '../shared/define.js';

export const createCommand = defineVerb('create', (cmd) =>
  cmd
    .description('register a receiver URL for events')
    .requiredOption('--url <url>', 'https:// receiver (http:// only for loopback hosts)')
    .requiredOption(
      '--events <events>',
      'comma-separated: scan.completed, scan.failed, finding.critical, finding.high, compliance.score_dropped, or all',
    )
    .option(
      '--secret-stdin',
      'read the signing secret from standard input (else CSSCTL_WEBHOOK_SECRET, else generated)',
    ),
);
