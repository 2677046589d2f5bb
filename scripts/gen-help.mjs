// Writes help.json (dist/help.json): the version and commander's help for every command, taken from the built CLI, so
// bin/cssctl.cjs answers `--version` and `… --help` without loading it. Run by scripts/build.mjs; a test
// (test/e2e/startup.test.ts) fails when the file and commander's real output part ways.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';

/** Commander's width when stdout is not a terminal. */
export const HELP_WIDTH = 80;

class Collect extends Writable {
  text = '';
  constructor(tty, columns) {
    super();
    if (tty) {
      this.isTTY = true;
      this.columns = columns;
    }
  }
  _write(chunk, _enc, cb) {
    this.text += chunk.toString();
    cb();
  }
}

/** What `cssctl <argv>` prints on stdout (and its exit code), run in-process with the given terminal. */
export async function captureHelp(cli, argv, { tty = false, columns = HELP_WIDTH } = {}) {
  const stdout = new Collect(tty, columns);
  const stderr = new Collect(false);
  const code = await cli.main({ argv, env: {}, streams: { stdin: new PassThrough(), stdout, stderr } });
  return { code, stdout: stdout.text, stderr: stderr.text };
}

/** Every command path of the tree: [], ['auth'], ['auth', 'login'], … */
export function commandPaths(cli) {
  const program = cli.buildProgram({ out() {}, stdout: {}, stderr: {} }, () => undefined);
  const paths = [];
  const walk = (cmd, path) => {
    paths.push(path);
    for (const sub of cmd.commands) walk(sub, [...path, sub.name()]);
  };
  walk(program, []);
  return paths;
}

/** What the tree declares about reading every finding (src/commands/shared/streams.ts), for the launcher. */
export function launchFile(cli) {
  return cli.launchManifest(cli.buildProgram({ out() {}, stdout: {}, stderr: {} }, () => undefined));
}

export async function generateHelp(cli) {
  const version = (await captureHelp(cli, ['--version'])).stdout.trim();
  const help = {};
  for (const path of commandPaths(cli)) {
    const plain = await captureHelp(cli, [...path, '--help']);
    if (plain.code !== 0 || plain.stderr !== '')
      throw new Error(`cssctl ${path.join(' ')} --help failed: ${plain.stderr}`);
    // A terminal gets the same text at 80 columns; at least `wideFrom` columns wide, commander wraps nothing.
    const wide = (await captureHelp(cli, [...path, '--help'], { tty: true, columns: 1000 })).stdout;
    let wideFrom = Math.max(...wide.split('\n').map((l) => l.length));
    while ((await captureHelp(cli, [...path, '--help'], { tty: true, columns: wideFrom })).stdout !== wide)
      wideFrom++;
    help[path.join(' ')] = { text: plain.stdout, wide, wideFrom };
  }
  return { version, width: HELP_WIDTH, help };
}

/** Called by scripts/build.mjs once cli.cjs is built in `dir` (its folder of the build, moved to dist/ later). */
export async function writeHelpFile(dir) {
  const files = {
    path: (name) => join(dir, name),
    text: (name) => readFileSync(join(dir, name), 'utf8'),
  };
  const { cli } = (await import('../bin/cssctl.cjs')).loadCli({ cache: false, files });
  const out = await generateHelp(cli);
  writeFileSync(join(dir, 'help.json'), `${JSON.stringify(out)}\n`);
  // dist/launch.json: the commands that read every finding, which bin/cssctl.cjs runs with the export flags.
  writeFileSync(join(dir, 'launch.json'), `${JSON.stringify(launchFile(cli))}\n`);
}
