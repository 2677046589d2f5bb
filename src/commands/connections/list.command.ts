import { withListOptions } from '../shared/action.js';
import { defineVerb } from '../shared/define.js';

export const listCommand = defineVerb('list', (cmd) => withListOptions(cmd.description('list connections')));
