#!/usr/bin/env bash
# Part of the test command: `meson setup` + `meson install --destdir` into a temporary folder,
# then checks what was installed and that the installed quire runs from there and finds its UI
# (embedded in the binary) by taking a screenshot under Xvfb.
#   install-check.sh [BUILDTYPE]   debug (default) reuses the test build; release builds a
#                                  self-contained binary in the meson build folder.
set -euo pipefail
cd "$(dirname "$0")/.."
buildtype=${1:-debug}
application_id=org.quire.Quire

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "install check: $*" >&2; exit 1; }

meson setup "$work/build" meson-helpers --prefix=/usr --buildtype="$buildtype" >"$work/setup.log" \
  || { cat "$work/setup.log" >&2; fail "meson setup failed"; }
meson install -C "$work/build" --destdir "$work/stage" >"$work/install.log" 2>&1 \
  || { cat "$work/install.log" >&2; fail "meson install failed"; }

prefix=$work/stage/usr
for file in \
  bin/quire \
  bin/quire-server \
  share/man/man1/quire.1 \
  share/man/man1/quire-server.1 \
  lib/systemd/system/quire-server.service \
  share/quire-server/nginx/quire-proxy.conf \
  share/quire-server/nginx/quire-server.conf \
  share/applications/$application_id.desktop \
  share/metainfo/$application_id.metainfo.xml \
  share/glib-2.0/schemas/$application_id.gschema.xml \
  share/icons/hicolor/scalable/apps/$application_id.svg \
  share/icons/hicolor/symbolic/apps/$application_id-symbolic.svg \
  share/locale/de/LC_MESSAGES/quire.mo \
  share/locale/fr/LC_MESSAGES/quire.mo; do
  [ -f "$prefix/$file" ] || fail "$file was not installed"
done

appstreamcli validate --no-net "$prefix/share/metainfo/$application_id.metainfo.xml" >/dev/null \
  || fail "the installed metainfo does not validate"
# Both carry the translations of po/ (merged by meson's i18n module).
desktop-file-validate "$prefix/share/applications/$application_id.desktop" || fail "the installed desktop file does not validate"
grep -q '^GenericName\[de\]=Artikel-Editor$' "$prefix/share/applications/$application_id.desktop" \
  || fail "the installed desktop file has no German name"
grep -q '<summary xml:lang="fr">' "$prefix/share/metainfo/$application_id.metainfo.xml" \
  || fail "the installed metainfo has no French summary"
# With the address a packager serves data/screenshots/ at, the installed metainfo lists the
# screenshots (example.org: the shape is checked here, no address is fetched).
meson configure "$work/build" -Dscreenshot_url=https://example.org/quire/data/screenshots/ >/dev/null
meson install -C "$work/build" --destdir "$work/stage-screenshots" >"$work/install-screenshots.log" 2>&1 \
  || { cat "$work/install-screenshots.log" >&2; fail "meson install with screenshot_url failed"; }
shots=$work/stage-screenshots/usr/share/metainfo/$application_id.metainfo.xml
grep -q '<image>https://example.org/quire/data/screenshots/writing-surface-light.png</image>' "$shots" \
  || fail "screenshot_url did not put the screenshots in the metainfo"
appstreamcli validate --no-net "$shots" >/dev/null || fail "the metainfo with screenshots does not validate"

version=$(meson introspect --projectinfo "$work/build" | python3 -c 'import json, sys; print(json.load(sys.stdin)["version"])')
[ "$(env -u DISPLAY -u WAYLAND_DISPLAY "$prefix/bin/quire" --version)" = "quire $version" ] \
  || fail "the installed quire does not report version $version"

"$prefix/bin/quire-server" --help | grep -q -- "--tls-cert" || fail "the installed quire-server does not run"
# The installed quire finds its catalogues under its own prefix (share/locale beside bin/).
env -u DISPLAY -u WAYLAND_DISPLAY -u LC_ALL -u LC_MESSAGES -u QUIRE_LOCALE_DIR LANG=C.UTF-8 LANGUAGE=de "$prefix/bin/quire" --help \
  | grep -q '^Aufruf:$' || fail "the installed quire does not speak German under LANGUAGE=de"
grep -q 'Push the library' "$prefix/share/man/man1/quire.1" || fail "quire.1 does not list the verbs"

# What the post-install step does on a real install (meson skips it for a DESTDIR).
glib-compile-schemas --strict "$prefix/share/glib-2.0/schemas"
(
  cd "$work"  # away from the source tree: the binary must not need it
  # A data folder of its own: the user's library is none of this check's business (a newer
  # library there opened read-only behind a dialog, and the check waited for it for ever).
  # The timeout makes any dialog that waits for a writer a failure instead of a hang.
  timeout 300 xvfb-run -a -s "-screen 0 1280x1024x24" dbus-run-session -- \
    env XDG_DATA_HOME="$work/data" XDG_CONFIG_HOME="$work/config" XDG_CACHE_HOME="$work/cache" \
    GSK_RENDERER=cairo GTK_A11Y=none NO_AT_BRIDGE=1 GSETTINGS_BACKEND=memory \
    GSETTINGS_SCHEMA_DIR="$prefix/share/glib-2.0/schemas" QUIRE_SCREENSHOT="$work/installed.png" \
    "$prefix/bin/quire" 2>"$work/run.log"
) || { cat "$work/run.log" >&2; fail "the installed quire failed to take a screenshot"; }
[ "$(head -c 4 "$work/installed.png" | tail -c 3)" = PNG ] || fail "the screenshot is not a PNG"
grep -q "not installed" "$work/run.log" && fail "the installed quire did not find its schema"
echo "install check: meson install ($buildtype) into a staging folder works; the installed quire and quire-server run"
