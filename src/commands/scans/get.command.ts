import { defineVerb } from '../shared/define.js';

export const getCommand = defineVerb('get', (cmd) => cmd.description('show one scan').argument('<scan_id>'));
