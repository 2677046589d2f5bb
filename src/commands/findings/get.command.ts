import { defineVerb } from '../shared/define.js';

export const getCommand = defineVerb('get', (cmd) =>
  cmd.description('show one finding, with its fingerprint').argument('<finding_id>'),
);
