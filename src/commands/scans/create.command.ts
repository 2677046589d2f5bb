import { defineVerb } from '../shared/define.js';
import { readsEveryFinding } from '../shared/streams.js';
import { withWaitOptions } from './wait.command.js';

export const createCommand = defineVerb('create', (cmd) =>
  readsEveryFinding(
    withWaitOptions(
      cmd
        .description('start a scan of a connection; with --wait, wait for it and report')
        .requiredOption('--connection <alias>', 'the connection to scan')
        .option('--wait', 'wait until the scan is final, then report'),
    ),
    '--wait',
  ),
);
