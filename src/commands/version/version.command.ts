import { defineVerb } from '../shared/define.js';

export const versionCommand = defineVerb('version', (cmd) =>
  cmd.description('print the version, the Node, the platform and the credential store that would be used'),
);
