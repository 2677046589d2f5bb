import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * End-to-end tests run the built bin/cssctl.cjs: built before any test file starts when the sources changed
 * since the last build (scripts/build.mjs --if-changed, which shares its lock and its dist/ with scripts/try:
 * neither rebuilds dist/ under the other). Against another
 * cssctl (CSSCTL_TEST_BIN: the single executable, an installed package) the build that made it is tested as
 * it is: building again would replace dist/, the executable with it.
 */
export default function setup(): void {
  if (process.env.CSSCTL_TEST_BIN) return;
  const root = fileURLToPath(new URL('..', import.meta.url));
  execFileSync(process.execPath, ['scripts/build.mjs', '--if-changed'], { cwd: root, stdio: 'inherit' });
}
