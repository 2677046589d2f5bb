import type { Command } from 'commander';
import { configDir } from '../../core/config.js';
import { UsageError } from '../../core/errors.js';
import { addCommand, handOver, type ArgsOf } from '../shared/define.js';
import { completeCommand, completionCommand } from './completion.command.js';

/**
 * `cssctl completion <shell>` prints the script generated from the command tree as registered at run time;
 * the hidden `cssctl __complete <source>` answers the scripts' questions at TAB time: profile names (read
 * from config.json, nothing sent) and connection aliases or recent scan ids (src/completion/remote.ts: from
 * the service within 1.5 s, cached a minute in $XDG_CACHE_HOME/cssctl, no token refreshed or written).
 */
export function registerCompletion(program: Command, env: NodeJS.ProcessEnv): void {
  const write = (cmd: Command, text: string) => cmd.configureOutput().writeOut?.(text);
  addCommand(program, completionCommand).action(async (...params: unknown[]) => {
    const cmd = params[params.length - 1] as Command;
    const [shell] = handOver(cmd).args as ArgsOf<typeof completionCommand>;
    if (cmd.optsWithGlobals().jq !== undefined)
      throw new UsageError('--jq: "completion" prints a script, not JSON');
    const { completionScript } = await import('../../completion/index.js');
    write(cmd, completionScript(shell, cmd.parent ?? cmd));
  });
  // Hidden: for the scripts, not for people.
  addCommand(program, completeCommand, { hidden: true }).action(async (...params: unknown[]) => {
    const cmd = params[params.length - 1] as Command;
    const [source] = handOver(cmd).args as ArgsOf<typeof completeCommand>;
    let names: string[];
    if (source === 'profiles') {
      const { profileNames } = await import('../../completion/profiles.js');
      names = profileNames(configDir(env));
    } else {
      // Connection aliases and recent scan ids, from the service (bounded, cached, never a prompt).
      const { remoteValues } = await import('../../completion/remote.js');
      const { profile, baseUrl, workspace } = cmd.optsWithGlobals<Record<string, string | undefined>>();
      names = await remoteValues(source, {
        env,
        globals: { profile, baseUrl, workspace },
      });
    }
    if (names.length > 0) write(cmd, `${names.join('\n')}\n`);
  });
}
