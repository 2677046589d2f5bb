// How another program starts this very cssctl (`cssctl mcp config` writes it into an MCP client's settings).
// The single executable is itself the command; the npm package is its launcher run by the node that runs it
// now, both by absolute path: a desktop client starts servers with a short PATH, where `#!/usr/bin/env node`
// may find no node (or another one).

export interface SelfCommand {
  command: string;
  args: string[];
}

export function selfCommand(): SelfCommand {
  if (process.getBuiltinModule('node:sea')?.isSea()) return { command: process.execPath, args: [] };
  const launcher = process.argv[1];
  return { command: process.execPath, args: launcher ? [launcher] : [] };
}
