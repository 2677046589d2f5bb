import type { Command } from 'commander';
import type { Wire } from '../shared/action.js';

export function registerConfig(program: Command, wire: Wire): void {
  const config = program
    .command('config')
    .description('read and write the active profile (base_url, workspace, email, output)');
  const verbs = () => import('./config.js');
  config
    .command('list')
    .description('show every setting, its value and where it comes from')
    .action(wire(async () => (await verbs()).list));
  config
    .command('get')
    .argument('<key>', 'base_url, workspace, email or output')
    .description('print one setting')
    .action(wire(async () => (await verbs()).get));
  config
    .command('set')
    .argument('<key>', 'base_url, workspace, email or output')
    .argument('<value>')
    .description('save a setting in the profile (creates the profile if it does not exist)')
    .action(wire(async () => (await verbs()).set));
  config
    .command('unset')
    .argument('<key>', 'base_url, workspace, email or output')
    .description('remove a setting from the profile')
    .action(wire(async () => (await verbs()).unset));
  config
    .command('profiles')
    .description('list the profiles: base URL, workspace, email, which is active, where the token is kept')
    .action(wire(async () => (await verbs()).profiles));
  config
    .command('path')
    .description('print the path of config.json')
    .action(wire(async () => (await verbs()).path));
}
