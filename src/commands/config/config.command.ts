import { defineVerb } from '../shared/define.js';

/** The verbs of `cssctl config` (their run functions: config.ts). */
export const listCommand = defineVerb('list', (cmd) =>
  cmd.description('show every setting, its value and where it comes from'),
);

export const getCommand = defineVerb('get', (cmd) =>
  cmd.argument('<key>', 'base_url, workspace, email or output').description('print one setting'),
);

export const setCommand = defineVerb('set', (cmd) =>
  cmd
    .argument('<key>', 'base_url, workspace, email or output')
    .argument('<value>')
    .description('save a setting in the profile (creates the profile if it does not exist)'),
);

export const unsetCommand = defineVerb('unset', (cmd) =>
  cmd
    .argument('<key>', 'base_url, workspace, email or output')
    .description('remove a setting from the profile'),
);

export const profilesCommand = defineVerb('profiles', (cmd) =>
  cmd.description('list the profiles: base URL, workspace, email, which is active, where the token is kept'),
);

export const pathCommand = defineVerb('path', (cmd) => cmd.description('print the path of config.json'));
