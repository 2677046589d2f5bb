import { collect } from '../shared/action.js';
import { defineVerb } from '../shared/define.js';

export const createCommand = defineVerb('create', (cmd) =>
  cmd
    .description('connect a cloud account')
    .requiredOption('--alias <alias>', 'unique name in the workspace')
    .requiredOption('--provider <provider>', 'cloud provider, e.g. aws, gcp, azure')
    .option(
      '--set <key=value>',
      'another field (repeatable; key:=<json> for a non-string value)',
      collect,
      [] as string[],
    ),
);
