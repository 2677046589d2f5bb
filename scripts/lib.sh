# Shared by scripts/test, scripts/try and .ci/run. Source it; it changes nothing until a function is called.

# Node ≥ 22.19 on PATH: the machine's when new enough, else Node 24 from the npm registry's `node` package
# (it ships a real Node binary and its headers) in ~/.cache/cssctl-node.
ensure_node() {
  local ok='const [a,b]=process.versions.node.split(".").map(Number); process.exit(a>22||(a===22&&b>=19)?0:1)'
  if command -v node >/dev/null 2>&1 && node -e "$ok" 2>/dev/null; then return 0; fi
  local dir="${CSSCTL_NODE_DIR:-$HOME/.cache/cssctl-node}"
  if ! [ -x "$dir/node_modules/.bin/node" ] || ! "$dir/node_modules/.bin/node" -e "$ok" 2>/dev/null; then
    echo "cssctl: installing Node.js 24 into $dir (this machine has $(node --version 2>/dev/null || echo no node))" >&2
    mkdir -p "$dir"
    (cd "$dir" && npm install --no-save --no-audit --no-fund --loglevel=error node@24 >&2)
  fi
  export PATH="$dir/node_modules/.bin:$PATH"
  node -e "$ok" || { echo "cssctl: could not get Node.js >= 22.19" >&2; return 1; }
}

# Prints the path of a Node of the given major version: from the npm registry's `node` package, installed once
# into ~/.cache/cssctl-node-<major> (the benchmark and scripts/test-shipped run cssctl on Node 22, 24 and 26).
node_major() {
  local major=$1 dir="$HOME/.cache/cssctl-node-$1"
  local bin="$dir/node_modules/.bin/node"
  if ! [ -x "$bin" ] || ! "$bin" -e "process.exit(process.versions.node.startsWith('$major.') ? 0 : 1)" 2>/dev/null; then
    echo "cssctl: installing Node.js $major into $dir" >&2
    mkdir -p "$dir"
    (cd "$dir" && npm install --no-save --no-audit --no-fund --loglevel=error "node@$major" >&2) || return 1
  fi
  echo "$bin"
}

# npm ci, with keytar built from source (no prebuilt download here) against the running Node's headers.
# The settings are given to this one command only: npm warns about them on every other.
npm_ci() {
  local root nodedir=()
  root=$(node -p 'require("path").resolve(process.execPath, "..", "..")')
  if [ -f "$root/include/node/node_api.h" ]; then nodedir=(npm_config_nodedir="$root"); fi
  env "${nodedir[@]}" npm_config_build_from_source=true npm ci --no-audit --no-fund --loglevel=error
}

# node_modules matching package-lock.json, skipped when already in step.
ensure_deps() {
  # A node_modules that is a link belongs to another checkout (a git worktree sharing it): never reinstall it.
  if [ -L node_modules ]; then return 0; fi
  if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
    npm_ci
  fi
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
