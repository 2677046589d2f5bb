import { defineVerb } from '../shared/define.js';

export const switchCommand = defineVerb('switch', (cmd) =>
  cmd
    .argument('<profile>', 'a profile of config.json (cssctl config profiles lists them)')
    .description('make a profile the default for later commands (--profile and CSSCTL_PROFILE still win)'),
);
