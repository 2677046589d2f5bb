// `npm run release:verify`: builds the release of one commit twice, each in a fresh clone of its own (two folders
// of different names and lengths, so nothing may depend on where it is built), and compares every file: the
// same names and the same bytes, SHA256SUMS included. Exits 1 on any difference, naming the file and the first
// byte that differs. The clones share this checkout's node_modules (a link: `npm ci` is not run again, and
// keytar's addon is the one this machine built) and the Node downloads in ~/.cache/cssctl-sea-node.
// `--commit <rev>` (default HEAD); changes not committed are not in the clones, and are not verified. `--keep`
// leaves the first build's release in this checkout's dist/release.
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const i = process.argv.indexOf('--commit');
const rev = i > 0 ? process.argv[i + 1] : 'HEAD';
const commit = execFileSync('git', ['rev-parse', '--verify', `${rev}^{commit}`], {
  cwd: root,
  encoding: 'utf8',
}).trim();
const sha256 = (file) => createHash('sha256').update(readFileSync(file)).digest('hex');

const base = mkdtempSync(join(tmpdir(), 'cssctl-release-verify-'));
let running;
const cleanUp = () => {
  running?.kill('SIGTERM');
  rmSync(base, { recursive: true, force: true });
};
for (const [sig, code] of Object.entries({ SIGINT: 130, SIGTERM: 143, SIGHUP: 129 }))
  process.on(sig, () => {
    cleanUp();
    process.exit(code);
  });

/** A fresh clone of `commit` in `dir`, with this checkout's node_modules, and its release; its files' sums. */
async function releaseIn(dir) {
  const started = Date.now();
  execFileSync('git', ['clone', '--quiet', '--no-checkout', root, dir]);
  execFileSync('git', ['-C', dir, 'checkout', '--quiet', '--detach', commit]);
  symlinkSync(realpathSync(join(root, 'node_modules')), join(dir, 'node_modules'));
  const code = await new Promise((resolve) => {
    running = spawn(process.execPath, [join(dir, 'scripts/release.mjs')], {
      cwd: dir,
      stdio: ['ignore', 'inherit', 'inherit'],
      env: { ...process.env, SOURCE_DATE_EPOCH: '' },
    });
    running.once('error', () => resolve(1));
    running.once('close', (c) => resolve(c ?? 1));
  });
  running = undefined;
  if (code !== 0) throw new Error(`release:verify: the release in ${dir} failed (exit ${code})`);
  const out = join(dir, 'dist', 'release');
  const sums = Object.fromEntries(
    readdirSync(out)
      .sort()
      .map((n) => [n, sha256(join(out, n))]),
  );
  console.log(
    `release:verify: ${dir}: ${Object.keys(sums).length} files in ${((Date.now() - started) / 1000).toFixed(0)} s`,
  );
  return { out, sums };
}

/** Where two files first differ: `byte N of M`. */
function firstDifference(a, b) {
  const x = readFileSync(a);
  const y = readFileSync(b);
  let n = 0;
  while (n < x.length && n < y.length && x[n] === y[n]) n++;
  return `first difference at byte ${n} (sizes ${x.length} and ${y.length})`;
}

try {
  console.log(`release:verify: commit ${commit}, built twice in ${base}`);
  const one = await releaseIn(join(base, 'one'));
  const two = await releaseIn(join(base, 'the-second-clone'));
  const names = [...new Set([...Object.keys(one.sums), ...Object.keys(two.sums)])].sort();
  let differ = 0;
  for (const n of names) {
    const [a, b] = [one.sums[n], two.sums[n]];
    if (a && a === b) console.log(`same       ${a}  ${n}`);
    else {
      differ++;
      console.log(
        !a || !b
          ? `DIFFERENT  ${n}: only in the ${a ? 'first' : 'second'} build`
          : `DIFFERENT  ${n}: ${a} / ${b}, ${firstDifference(join(one.out, n), join(two.out, n))}`,
      );
    }
  }
  console.log(
    differ
      ? `release:verify: ${differ} of ${names.length} files differ between the two builds`
      : `release:verify: the two builds of ${commit.slice(0, 12)} are identical: ${names.length} files, SHA256SUMS ${one.sums.SHA256SUMS}`,
  );
  // --keep: the first build's release is left in this checkout's dist/release (test/release checks it).
  if (process.argv.includes('--keep') && !differ) {
    const kept = join(root, 'dist', 'release');
    rmSync(kept, { recursive: true, force: true });
    cpSync(one.out, kept, { recursive: true });
    console.log(`release:verify: the first build's release is in ${kept}`);
  }
  cleanUp();
  process.exit(differ ? 1 : 0);
} catch (err) {
  console.error(err instanceof Error ? err.message : String(err));
  cleanUp();
  process.exit(1);
}
