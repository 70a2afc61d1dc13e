#!/usr/bin/env bash
# Builds the Debian packages `quire` (the app) and `quire-server` from this tree, with dpkg-deb:
# release binaries with the Swift runtime linked in, installed by meson (the one install layout),
# split into the two packages, each with its manual page, copyright and changelog; the server's
# with its systemd unit, a `quire` system user, /etc/quire-server/config and /var/lib/quire-server.
#   build-debs.sh OUT_DIR        writes OUT_DIR/quire_VERSION_ARCH.deb and quire-server_VERSION_ARCH.deb
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
mkdir -p "$1"
out=$(cd "$1" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "build-debs: $*" >&2; exit 1; }

# Release builds in the package's own .build (shared with quire-bench; the tests use debug).
for product in quire-server quire; do
  swift build -c release --static-swift-stdlib --product "$product" >"$work/swift-$product.log" 2>&1 \
    || { cat "$work/swift-$product.log" >&2; fail "swift build of $product failed"; }
done
bin=$(swift build -c release --static-swift-stdlib --show-bin-path)

meson setup "$work/build" meson-helpers --prefix=/usr -Dprebuilt_bin_dir="$bin" \
  -Dsystemd_unit_dir=/lib/systemd/system >"$work/meson.log" 2>&1 || { cat "$work/meson.log" >&2; fail "meson setup failed"; }
meson install -C "$work/build" --destdir "$work/stage" >>"$work/meson.log" 2>&1 \
  || { cat "$work/meson.log" >&2; fail "meson install failed"; }
version=$(meson introspect --projectinfo "$work/build" | python3 -c 'import json, sys; print(json.load(sys.stdin)["version"])')
architecture=$(dpkg --print-architecture)
date=$(date -R)

# The server's files go to quire-server, everything else to quire.
server=$work/quire-server
app=$work/quire
mkdir -p "$server/usr/bin" "$server/usr/share/man/man1" "$server/usr/share" "$server/lib/systemd/system" \
  "$server/etc/quire-server"
cp -a "$work/stage/." "$app/"
mv "$app/usr/bin/quire-server" "$server/usr/bin/"
mv "$app/usr/share/man/man1/quire-server.1" "$server/usr/share/man/man1/"
mv "$app/usr/share/quire-server" "$server/usr/share/"
mv "$app/lib/systemd/system/quire-server.service" "$app/lib/systemd/system/quire-server.socket" "$server/lib/systemd/system/"
rm -r "$app/lib"
# The configuration: every setting commented out at its default, and the Debian data folder.
{
  "$server/usr/bin/quire-server" help --config
  printf '\n# Where the Debian package keeps the data (made by the package, owned by the quire user).\n'
  printf 'data = /var/lib/quire-server\n'
} >"$server/etc/quire-server/config"

# A debian/control for dpkg-shlibdeps, which reads the libraries each binary needs.
mkdir -p "$work/source/debian"
printf 'Source: quire\n\nPackage: quire\nArchitecture: any\n\nPackage: quire-server\nArchitecture: any\n' \
  >"$work/source/debian/control"
depends() { (cd "$work/source" && dpkg-shlibdeps -O --warnings=0 "$1" | sed -n 's/^shlibs:Depends=//p'); }

for package in quire quire-server; do
  tree=$work/$package
  # Stripped, and without the run path SwiftPM sets (the Swift runtime is linked in).
  strip --strip-unneeded --remove-section=.comment --remove-section=.note "$tree/usr/bin/$package"
  chrpath -d "$tree/usr/bin/$package" >/dev/null
  gzip -9n "$tree/usr/share/man/man1/$package.1"
  doc=$tree/usr/share/doc/$package
  mkdir -p "$doc"
  cat >"$doc/copyright" <<COPYRIGHT
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: quire
Source: built from the Quire source tree

Files: *
Copyright: 2025-2026 Quire contributors
License: GPL-3+
 This program is free software: you can redistribute it and/or modify it under the terms of the
 GNU General Public License as published by the Free Software Foundation, either version 3 of
 the License, or (at your option) any later version.
 .
 On Debian systems, the complete text of the GNU General Public License version 3 can be found
 in /usr/share/common-licenses/GPL-3.
COPYRIGHT
  printf '%s (%s) unstable; urgency=medium\n\n  * Built from the source tree.\n\n -- Quire maintainers <maintainers@quire.invalid>  %s\n' \
    "$package" "$version" "$date" | gzip -9n >"$doc/changelog.gz"
  mkdir -p "$tree/DEBIAN"
done

cat >"$app/DEBIAN/control" <<CONTROL
Package: quire
Version: $version
Architecture: $architecture
Maintainer: Quire maintainers <maintainers@quire.invalid>
Installed-Size: $(du -sk --exclude=DEBIAN "$app" | cut -f1)
Depends: $(depends "$app/usr/bin/quire")
Suggests: quire-server
Section: editors
Priority: optional
Description: offline-first article editor for GNOME
 Quire keeps a library of articles on this computer, edits them without a
 network and syncs them with a Quire server when one is set up; when the same
 article changed on two sides, the writer decides. Drafts export to Markdown,
 HTML, PDF and JSON. The same library works from the command line.
CONTROL

cat >"$server/DEBIAN/control" <<CONTROL
Package: quire-server
Version: $version
Architecture: $architecture
Maintainer: Quire maintainers <maintainers@quire.invalid>
Installed-Size: $(du -sk --exclude=DEBIAN "$server" | cut -f1)
Depends: adduser, $(depends "$server/usr/bin/quire-server")
Suggests: nginx, postgresql
Section: net
Priority: optional
Description: sync server for Quire libraries
 quire-server keeps the articles of Quire libraries in SQLite or PostgreSQL
 and syncs them over HTTP or HTTPS: accounts with a token per device,
 idempotent writes, a change feed, backups, Prometheus metrics. The package
 runs it as a systemd service under the quire user, with its configuration in
 /etc/quire-server/config and its data in /var/lib/quire-server.
CONTROL
echo /etc/quire-server/config >"$server/DEBIAN/conffiles"

# Maintainer scripts: the system user and folders, and the service as debhelper would manage it.
cat >"$server/DEBIAN/postinst" <<'SCRIPT'
#!/bin/sh
set -e
if [ "$1" = configure ]; then
    adduser --system --group --quiet --home /var/lib/quire-server --no-create-home \
        --gecos "Quire sync server" quire
    install -d -o quire -g quire -m 0700 /var/lib/quire-server
    chgrp quire /etc/quire-server/config
    chmod 0640 /etc/quire-server/config
fi
if [ "$1" = configure ] || [ "$1" = abort-upgrade ] || [ "$1" = abort-deconfigure ] || [ "$1" = abort-remove ]; then
    deb-systemd-helper unmask quire-server.service >/dev/null || true
    if deb-systemd-helper --quiet was-enabled quire-server.service; then
        deb-systemd-helper enable quire-server.service >/dev/null || true
    else
        deb-systemd-helper update-state quire-server.service >/dev/null || true
    fi
    if [ -d /run/systemd/system ]; then
        systemctl --system daemon-reload >/dev/null || true
        deb-systemd-invoke restart quire-server.service >/dev/null || true
    fi
fi
SCRIPT
cat >"$server/DEBIAN/prerm" <<'SCRIPT'
#!/bin/sh
set -e
if [ -d /run/systemd/system ] && [ "$1" = remove ]; then
    deb-systemd-invoke stop quire-server.service >/dev/null || true
fi
SCRIPT
cat >"$server/DEBIAN/postrm" <<'SCRIPT'
#!/bin/sh
set -e
if [ -d /run/systemd/system ]; then
    systemctl --system daemon-reload >/dev/null || true
fi
if [ "$1" = remove ]; then
    deb-systemd-helper mask quire-server.service >/dev/null || true
fi
if [ "$1" = purge ]; then
    deb-systemd-helper purge quire-server.service >/dev/null || true
    deb-systemd-helper unmask quire-server.service >/dev/null || true
    # The articles in /var/lib/quire-server and the quire user stay: removing a package never
    # deletes a writer's data.
fi
SCRIPT
chmod 0755 "$server/DEBIAN/postinst" "$server/DEBIAN/prerm" "$server/DEBIAN/postrm"

for package in quire quire-server; do
  dpkg-deb --root-owner-group -Zxz --build "$work/$package" "$out/${package}_${version}_${architecture}.deb" >/dev/null
  echo "$out/${package}_${version}_${architecture}.deb"
done
