import { defineVerb } from '../shared/define.js';

export const deleteCommand = defineVerb('delete', (cmd) =>
  cmd.description('delete a webhook').argument('<id>', 'webhook id, from cssctl webhooks list'),
);
