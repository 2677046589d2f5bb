import { defineVerb } from '../shared/define.js';
import { withIgnoreFile } from './options.js';

export const ignoreCommand = defineVerb('ignore', (cmd) =>
  withIgnoreFile(
    cmd
      .description('accept the risk of findings: append an entry per finding to the ignore file')
      .argument('<finding_id...>')
      .option('--reason <text>', 'why the risk is accepted (required)')
      .option('--expires <date>', 'YYYY-MM-DD, <n>d or never (default: 90d)'),
  ),
);
