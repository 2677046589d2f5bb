import { defineVerb } from '../shared/define.js';

export const refreshCommand = defineVerb('refresh', (cmd) => cmd.description('refresh the access token now'));
