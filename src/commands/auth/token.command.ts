import { defineVerb } from '../shared/define.js';

export const tokenCommand = defineVerb('token', (cmd) =>
  cmd.description('print a valid access token (refreshing first when needed)'),
);
