import { withListOptions } from '../shared/action.js';
import { defineVerb } from '../shared/define.js';
import { withConnectionFilter } from '../shared/filters.js';

export const listCommand = defineVerb('list', (cmd) =>
  withListOptions(
    withConnectionFilter(cmd, 'scans')
      .description('list scans, newest first')
      .option('--status <status>', 'only scans with this status: queued, running, completed or failed'),
  ),
);
