// The GitHub Action's post step: when the job ends — whether the main step passed, failed or was cancelled —
// the session the main step kept is removed: its tokens through the logout verb (the same removal as `cssctl
// logout`), then the whole folder (config.json, lock and rate-limit state). A post step that cannot remove it warns
// and does not fail the job: the runner empties its temporary folder after the job anyway.
import { lstatSync, rmSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { tmpdir } from 'node:os';
import { logout } from '../commands/auth/logout.js';
import { errorLine } from '../core/error-line.js';
import { render } from '../cli/render.js';
import { formatCommand } from '../report/formats/github.js';
import { ActionIO, SESSION_PREFIX, SESSION_STATE, sessionContext, type StepWorld } from './context.js';
import { readState } from './runner.js';

/** Resolves to the step's exit code: always 0 (a problem is a warning). */
export async function runPost(world: StepWorld): Promise<number> {
  const io = new ActionIO(world);
  const dir = readState(world.env, SESSION_STATE);
  const warn = (message: string) => io.out(`${formatCommand('warning', message)}\n`);
  if (dir === '') {
    io.notice('cssctl: no session to remove (the main step kept none)');
  } else if (sessionDir(world.env, dir) === 'gone') {
    io.notice(`cssctl: the session folder ${dir} is already gone`);
  } else if (sessionDir(world.env, dir) === 'foreign') {
    warn(`cssctl: did not remove ${dir}: it is not a session folder the main step made`);
  } else {
    try {
      const ctx = sessionContext(world, io, dir);
      await render(ctx, await logout(ctx));
    } catch (err) {
      warn(`cssctl: ${errorLine(err, ActionIO.noColor).replace(/^error: /, '')}`);
    }
    try {
      rmSync(dir, { recursive: true, force: true });
      io.notice(`cssctl: removed the session folder ${dir}`);
    } catch (err) {
      warn(`cssctl: could not remove the session folder ${dir}: ${(err as Error).message}`);
    }
  }
  await io.finishOutput();
  return 0;
}

/**
 * Only a folder the main step made: named SESSION_PREFIX…, directly in the runner's temporary folder (or the
 * system's, where there is none), a real folder and not a symlink to one. The state is the action's own; this
 * keeps a post step from removing anything else whatever it is given.
 */
function sessionDir(env: NodeJS.ProcessEnv, dir: string): 'ours' | 'gone' | 'foreign' {
  const path = resolve(dir);
  const parents = [env.RUNNER_TEMP, tmpdir()].filter((p): p is string => Boolean(p)).map((p) => resolve(p));
  if (!basename(path).startsWith(SESSION_PREFIX) || !parents.includes(dirname(path))) return 'foreign';
  try {
    const st = lstatSync(path);
    return st.isDirectory() && !st.isSymbolicLink() ? 'ours' : 'foreign';
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'gone' : 'foreign';
  }
}
