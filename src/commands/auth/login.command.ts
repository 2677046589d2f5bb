import { defineVerb } from '../shared/define.js';

export const loginCommand = defineVerb('login', (cmd) =>
  cmd
    .description('log in and store the session (password prompt on a terminal)')
    .option('--email <email>', 'account email (env: CSSCTL_EMAIL)')
    .option('--password-stdin', 'read the password from standard input'),
);
