import { defineVerb } from '../shared/define.js';
import { TOOLSET_NAMES } from './toolsets.js';

/** `cssctl mcp`: the MCP server over stdio (src/mcp/), a front end of its own. */
export const mcpCommand = defineVerb('mcp', (cmd) =>
  cmd
    .description(
      'serve the Model Context Protocol over stdio, for AI assistants (read-only unless --allow-write)',
    )
    .option('--allow-write', 'also offer the tools that change something: create_scan and ignore_finding')
    .option(
      '--toolsets <sets>',
      `offer only the tools of these sets, separated by commas: ${TOOLSET_NAMES.join(', ')}`,
    )
    .option('--tools <names>', 'offer only these tools (and those of --toolsets), separated by commas'),
);
