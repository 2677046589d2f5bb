import { Argument, type Command } from 'commander';
import { configDir } from '../../core/config.js';
import { UsageError } from '../../core/errors.js';
import { completeWith } from '../../completion/meta.js';

const SHELLS = ['bash', 'zsh', 'fish'];

/**
 * `cssctl completion <shell>` prints the script generated from the command tree as registered at run time;
 * the hidden `cssctl __complete <source>` answers the scripts' questions at TAB time: profile names (read
 * from config.json, nothing sent) and connection aliases or recent scan ids (src/completion/remote.ts: from
 * the service within 1.5 s, cached a minute in $XDG_CACHE_HOME/cssctl, no token refreshed or written).
 */
export function registerCompletion(program: Command, env: NodeJS.ProcessEnv): void {
  const write = (cmd: Command, text: string) => cmd.configureOutput().writeOut?.(text);
  const completion = program
    .command('completion')
    .description('print the shell completion script (bash, zsh or fish)')
    .addArgument(new Argument('<shell>', 'bash, zsh or fish').choices(SHELLS))
    .action(async (shell: 'bash' | 'zsh' | 'fish', _opts: unknown, cmd: Command) => {
      if (cmd.optsWithGlobals().jq !== undefined)
        throw new UsageError('--jq: "completion" prints a script, not JSON');
      const { completionScript } = await import('../../completion/index.js');
      write(cmd, completionScript(shell, cmd.parent ?? cmd));
    });
  // It prints a script whatever -o says: no format to offer (completion, docs/commands.md).
  completeWith(completion, { outputs: [] });
  program
    .command('__complete', { hidden: true })
    .description('values for the completion scripts')
    .addArgument(new Argument('<source>').choices(['profiles', 'connections', 'scans']))
    .action(async (source: string, _opts: unknown, cmd: Command) => {
      let names: string[];
      if (source === 'profiles') {
        const { profileNames } = await import('../../completion/profiles.js');
        names = profileNames(configDir(env));
      } else {
        // Connection aliases and recent scan ids, from the service (bounded, cached, never a prompt).
        const { remoteValues } = await import('../../completion/remote.js');
        const { profile, baseUrl, workspace } = cmd.optsWithGlobals<Record<string, string | undefined>>();
        names = await remoteValues(source as 'connections' | 'scans', {
          env,
          globals: { profile, baseUrl, workspace },
        });
      }
      if (names.length > 0) write(cmd, `${names.join('\n')}\n`);
    });
}
