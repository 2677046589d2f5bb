import { defineVerb } from '../shared/define.js';

export const listenCommand = defineVerb('listen', (cmd) =>
  cmd
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
    .option('--secret-file <path>', 'file holding the signing secret (default: CSSCTL_WEBHOOK_SECRET)'),
);
