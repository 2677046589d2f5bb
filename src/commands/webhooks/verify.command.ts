import { defineVerb } from '../shared/define.js';

export const verifyCommand = defineVerb('verify', (cmd) =>
  cmd
    .description('check an X-Service-Signature value against a raw payload (exit 0 valid, 1 invalid)')
    .requiredOption('--signature <value>', 'the X-Service-Signature header value, sha256=<hex>')
    .option('--payload-file <path>', 'the raw payload (default: standard input)')
    .option('--secret-file <path>', 'file holding the signing secret (default: CSSCTL_WEBHOOK_SECRET)'),
);
