// The user's cache folder for cssctl: one rule for the launcher's code cache (bin/cssctl.cjs) and the
// completion cache (src/completion/remote.ts). CommonJS, Node's built-ins only: the launcher requires it as it
// is, esbuild bundles it into the CLI.
'use strict';

/**
 * The platform's cache folder: on Windows `%LOCALAPPDATA%\cssctl\Cache` (the local, not roaming, application
 * data); on macOS `$XDG_CACHE_HOME/cssctl` when set, else `~/Library/Caches/cssctl`; elsewhere
 * `$XDG_CACHE_HOME/cssctl`, else `~/.cache/cssctl` (a relative XDG_CACHE_HOME is ignored, as the XDG spec says).
 * undefined when there is no usable folder (no absolute home).
 * @param {NodeJS.ProcessEnv} [env]
 * @param {NodeJS.Platform} [platform]
 * @returns {string | undefined}
 */
function cacheDir(env = process.env, platform = process.platform) {
  // Windows paths (drive letters, backslashes) whatever the machine running this is (the tests fake it).
  const path = process.getBuiltinModule('node:path')[platform === 'win32' ? 'win32' : 'posix'];
  const absolute = (p) => (p && path.isAbsolute(p) ? p : undefined);
  if (platform === 'win32') {
    const profile = absolute(env.USERPROFILE) ?? absolute(home());
    const local = absolute(env.LOCALAPPDATA) ?? (profile && path.join(profile, 'AppData', 'Local'));
    return local && path.join(local, 'cssctl', 'Cache');
  }
  const xdg = absolute(env.XDG_CACHE_HOME);
  if (xdg) return path.join(xdg, 'cssctl');
  const user = absolute(env.HOME) ?? absolute(home());
  if (!user) return undefined;
  return platform === 'darwin'
    ? path.join(user, 'Library', 'Caches', 'cssctl')
    : path.join(user, '.cache', 'cssctl');
}

/** The home folder Node finds, or undefined (os.homedir() throws when the user has no entry). */
function home() {
  try {
    return process.getBuiltinModule('node:os').homedir();
  } catch {
    return undefined;
  }
}

module.exports = { cacheDir };
