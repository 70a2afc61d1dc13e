#!/usr/bin/env bash
# Part of the test command: builds the Debian packages (build-debs.sh), checks them with lintian
# (no error), installs them on this machine with apt-get, checks what the server package made
# (the quire user, /etc/quire-server/config, /var/lib/quire-server, a unit systemd-analyze
# accepts), starts the unit's ExecStartPre and ExecStart lines as its user (systemd is not PID 1
# here; with systemd it would be `systemctl start quire-server`), adds an account, syncs a library
# with the installed quire, stops the server, and removes both packages again.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
server_pid=
cleanup() {
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null || true
  apt-get purge -y -qq quire quire-server >/dev/null 2>&1 || true
  rm -rf /var/lib/quire-server "$work"
}
trap cleanup EXIT
fail() { echo "deb check: $*" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || fail "installing packages needs root"
[ -e /var/lib/quire-server ] && fail "/var/lib/quire-server exists: this machine has a quire-server of its own"

meson-helpers/build-debs.sh "$work/debs" >"$work/build.log" 2>&1 || { cat "$work/build.log" >&2; fail "build-debs.sh failed"; }
lintian --tag-display-limit 0 "$work"/debs/*.deb >"$work/lintian.log" 2>&1 || true
grep '^E:' "$work/lintian.log" >&2 && fail "lintian reports errors"

DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$work"/debs/quire_*.deb "$work"/debs/quire-server_*.deb \
  >"$work/install.log" 2>&1 || { cat "$work/install.log" >&2; fail "apt-get install failed"; }
getent passwd quire >/dev/null || fail "no quire user"
[ "$(stat -c '%U %a' /var/lib/quire-server)" = "quire 700" ] || fail "/var/lib/quire-server is not quire's, mode 700"
[ "$(stat -c '%G %a' /etc/quire-server/config)" = "quire 640" ] || fail "/etc/quire-server/config is not group quire, mode 640"
man -w quire-server >/dev/null && man -w quire >/dev/null || fail "a manual page is missing"
unit=/lib/systemd/system/quire-server.service
[ -f /lib/systemd/system/quire-server.socket ] || fail "the socket unit is not installed"
if command -v systemd-analyze >/dev/null; then
  systemd-analyze verify "$unit" /lib/systemd/system/quire-server.socket >"$work/verify.log" 2>&1 || { cat "$work/verify.log" >&2; fail "systemd-analyze verify"; }
  [ -s "$work/verify.log" ] && { cat "$work/verify.log" >&2; fail "systemd-analyze verify is not clean"; }
fi

# The configuration an operator would edit: a free port on loopback.
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
printf 'listen = 127.0.0.1:%s\n' "$port" >>/etc/quire-server/config
# setpriv execs the command itself, so that the server's PID is the one started here (runuser
# would wait as a parent and answer signals for it).
as_quire=(setpriv --reuid=quire --regid=quire --init-groups --)
pre=$(sed -n 's/^ExecStartPre=//p' "$unit")
start=$(sed -n 's/^ExecStart=//p' "$unit")
"${as_quire[@]}" $pre >"$work/check.log" 2>&1 || { cat "$work/check.log" >&2; fail "ExecStartPre failed"; }
"${as_quire[@]}" $start >"$work/serve.out" 2>"$work/serve.log" &
server_pid=$!
for _ in $(seq 1 600); do grep -q "listening on" "$work/serve.out" && break; sleep 0.05; done
grep -q "listening on http://127.0.0.1:$port" "$work/serve.out" || { cat "$work/serve.log" >&2; fail "the server did not start"; }

token=$("${as_quire[@]}" quire-server account add alice --config /etc/quire-server/config 2>/dev/null)
export XDG_DATA_HOME=$work/home XDG_CONFIG_HOME=$work/home
quire demo --library "$work/library.quire" --articles 5 >/dev/null
quire sync --library "$work/library.quire" --server "http://127.0.0.1:$port" --token "$token" >"$work/sync.log" 2>&1 \
  || { cat "$work/sync.log" >&2; fail "quire sync failed"; }
live=$(quire list --library "$work/library.quire" --json | python3 -c 'import json, sys; print(len(json.load(sys.stdin)))')
served=$(curl -s -H "Authorization: Bearer $token" "http://127.0.0.1:$port/v1/articles?limit=100" \
  | python3 -c 'import json, sys; print(len(json.load(sys.stdin)["articles"]))')
[ "$live" -gt 0 ] && [ "$served" = "$live" ] || fail "the server holds $served articles, the library $live"
kill -TERM "$server_pid"
wait "$server_pid" || fail "the server did not stop cleanly"
server_pid=
echo "deb check: quire and quire-server packages build, pass lintian, install, serve and sync ($served articles)"
