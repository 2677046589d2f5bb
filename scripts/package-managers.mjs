// The Homebrew formula (cssctl.rb) and the Scoop manifest (cssctl.json) of a release, made by scripts/release.mjs
// from the release's own files: each URL is the file's download address on the release page of the tag, each sum
// the SHA-256 of the file itself (the same as in SHA256SUMS). A formula names the macOS and Linux executables the
// release has; the manifest the Windows one. test/release/package-managers.test.ts checks both (the sums against
// SHA256SUMS, the formula with `ruby -c`, the manifest against Scoop's JSON schema).

/** `owner/name` of the GitHub repository from package.json's `repository` (git+https://github.com/o/n.git). */
export function githubRepository(pkg) {
  const url = typeof pkg.repository === 'string' ? pkg.repository : pkg.repository?.url;
  const m = /github\.com[/:]([\w.-]+)\/([\w.-]+?)(?:\.git)?$/.exec(url ?? '');
  if (!m) throw new Error(`release: package.json's repository (${url}) is not a GitHub repository`);
  return `${m[1]}/${m[2]}`;
}

/** Where a file of the release of `tag` is downloaded from. */
export const downloadUrl = (repo, tag, name) =>
  `https://github.com/${repo}/releases/download/${encodeURIComponent(tag)}/${encodeURIComponent(name)}`;

/** A Ruby string literal of `s` (double quotes: `"`, `\` and `#` escaped, so nothing is interpolated). */
const rb = (s) => `"${String(s).replace(/[\\"#]/g, (c) => `\\${c}`)}"`;

const FORMULA_BLOCKS = [
  [
    'on_macos',
    [
      ['on_arm', 'darwin-arm64'],
      ['on_intel', 'darwin-x64'],
    ],
  ],
  [
    'on_linux',
    [
      ['on_arm', 'linux-arm64'],
      ['on_intel', 'linux-x64'],
    ],
  ],
];

/**
 * The Homebrew formula: for each macOS and Linux executable in `sums` (file name → SHA-256), its URL and sum in
 * the block of its system and CPU; installed as `cssctl`, with its licences file beside it when the release has
 * one. Undefined when the release has none of those executables.
 */
export function homebrewFormula({ pkg, repo, tag, sums }) {
  const blocks = [];
  for (const [os, arches] of FORMULA_BLOCKS) {
    const inner = arches
      .filter(([, target]) => sums[`cssctl-${target}`])
      .map(([cpu, target]) => {
        const name = `cssctl-${target}`;
        return [
          `    ${cpu} do`,
          `      url ${rb(downloadUrl(repo, tag, name))}`,
          `      sha256 ${rb(sums[name])}`,
          `    end`,
        ].join('\n');
      });
    if (inner.length) blocks.push(`  ${os} do\n${inner.join('\n')}\n  end`);
  }
  if (!blocks.length) return undefined;
  return `# Made by scripts/release.mjs from the files of the release ${tag}; not edited by hand.
class Cssctl < Formula
  desc ${rb(pkg.description)}
  homepage ${rb(pkg.homepage)}
  version ${rb(pkg.version)}
  license ${rb(pkg.license)}

${blocks.join('\n\n')}

  def install
    bin.install Dir["cssctl-*"].first => "cssctl"
  end

  test do
    assert_equal version.to_s, shell_output("#{bin}/cssctl --version").strip
  end
end
`;
}

/**
 * The Scoop manifest of the Windows executable (`cssctl-win-x64.exe`, installed as `cssctl.exe`), with
 * `checkver`/`autoupdate` so a bucket can follow new releases. Undefined when the release has no Windows
 * executable.
 */
export function scoopManifest({ pkg, repo, tag, sums }) {
  const name = 'cssctl-win-x64.exe';
  if (!sums[name]) return undefined;
  const manifest = {
    version: pkg.version,
    description: pkg.description,
    homepage: pkg.homepage,
    license: pkg.license,
    architecture: { '64bit': { url: `${downloadUrl(repo, tag, name)}#/cssctl.exe`, hash: sums[name] } },
    bin: 'cssctl.exe',
    checkver: { github: `https://github.com/${repo}` },
    autoupdate: {
      architecture: {
        '64bit': { url: `https://github.com/${repo}/releases/download/v$version/${name}#/cssctl.exe` },
      },
    },
  };
  return `${JSON.stringify(manifest, null, 2)}\n`;
}
