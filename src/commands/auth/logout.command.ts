import { defineVerb } from '../shared/define.js';

export const logoutCommand = defineVerb('logout', (cmd) =>
  cmd.description("remove the profile's tokens from every credential store"),
);
