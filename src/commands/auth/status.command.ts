import { defineVerb } from '../shared/define.js';

export const statusCommand = defineVerb('status', (cmd) =>
  cmd.description('show who and where you are logged in, and when the token expires'),
);
