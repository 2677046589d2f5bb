import { completeWith } from '../../completion/meta.js';
import { defineVerb, Option } from '../shared/define.js';
import { MCP_CLIENTS, MCP_CONFIG_OFFER } from './clients.js';

/**
 * `cssctl mcp config`. Its --allow-write, --toolsets and --tools are `mcp`'s too: given after `config`, commander
 * gives them to `mcp` (global options are read after the command as well), and the verb gets them all the same
 * (handOver, src/commands/shared/define.ts).
 */
export const configCommand = defineVerb('config', (cmd) =>
  completeWith(
    cmd
      .description("print the JSON that registers this cssctl as an MCP server in a client's settings")
      .addOption(
        new Option('--client <client>', 'the client whose format to print')
          .choices(MCP_CLIENTS)
          .default('claude'),
      )
      .option('--allow-write', 'register the server with --allow-write')
      .option('--toolsets <sets>', 'register the server with --toolsets')
      .option('--tools <names>', 'register the server with --tools'),
    // Completion offers -o values from the tree: the formats this command offers (src/completion/meta.ts).
    { outputs: MCP_CONFIG_OFFER.names },
  ),
);
