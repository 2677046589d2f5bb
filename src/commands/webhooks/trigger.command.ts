import { defineVerb } from '../shared/define.js';

export const triggerCommand = defineVerb('trigger', (cmd) =>
  cmd
    .description('send a correctly signed sample delivery to a receiver, to test it')
    .argument(
      '<event>',
      'scan.completed, scan.failed, finding.critical, finding.high or compliance.score_dropped',
    )
    .requiredOption('--url <url>', 'the receiver (https://, or http:// for loopback hosts)')
    .option('--secret-file <path>', 'file holding the signing secret (default: CSSCTL_WEBHOOK_SECRET)'),
);
