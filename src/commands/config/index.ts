import type { Command } from 'commander';
import type { Wire } from '../shared/action.js';
import { addVerb } from '../shared/define.js';
import {
  getCommand,
  listCommand,
  pathCommand,
  profilesCommand,
  setCommand,
  unsetCommand,
} from './config.command.js';

export function registerConfig(program: Command, wire: Wire): void {
  const config = program
    .command('config')
    .description('read and write the active profile (base_url, workspace, email, output)');
  const verbs = () => import('./config.js');
  addVerb(config, listCommand, wire, async () => (await verbs()).list);
  addVerb(config, getCommand, wire, async () => (await verbs()).get);
  addVerb(config, setCommand, wire, async () => (await verbs()).set);
  addVerb(config, unsetCommand, wire, async () => (await verbs()).unset);
  addVerb(config, profilesCommand, wire, async () => (await verbs()).profiles);
  addVerb(config, pathCommand, wire, async () => (await verbs()).path);
}
