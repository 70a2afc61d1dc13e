# What Quire needs on Debian 12, sourced by the run and test scripts: the Swift toolchain (which
# Debian does not package: ensure_swift stops with where to get it) and Debian packages.
# Keep each list sorted; a part that needs a new library adds it here and only here.

# The one Swift version Quire is built and tested with; README says the same.
SWIFT_VERSION=6.3.1
SWIFT_PREREQUISITE="Quire needs Swift $SWIFT_VERSION: install swift.org's Debian 12 toolchain (swift-$SWIFT_VERSION-RELEASE-debian12.tar.gz from https://www.swift.org/install/linux/), unpacked for example into /opt/swift, with /opt/swift/usr/bin on PATH."

# Building and running the app.
APP_PACKAGES=(
  adwaita-icon-theme
  fonts-dejavu-core
  fonts-noto-cjk
  fonts-noto-color-emoji
  fonts-wqy-microhei
  gettext
  hicolor-icon-theme
  hunspell-de-de
  hunspell-en-gb
  hunspell-en-us
  hunspell-fr
  libadwaita-1-dev
  libcairo2-dev
  libcmark-gfm-dev
  libcmark-gfm-extensions-dev
  libcurl4-openssl-dev
  libenchant-2-dev
  libfontconfig-dev
  libglib2.0-bin
  libglib2.0-dev
  libglib2.0-dev-bin
  libgtk-4-dev
  libgtksourceview-5-dev
  libmicrohttpd-dev
  libpango1.0-dev
  libpq-dev
  librsvg2-common
  librsvg2-dev
  libsecret-1-dev
  libsqlite3-dev
  libssl-dev
  libsystemd-dev
  libwebkitgtk-6.0-dev
  libyaml-dev
  pkg-config
  webp-pixbuf-loader
)

# Running the test suite and the install check, on top of the app's packages.
TEST_PACKAGES=(
  appstream
  at-spi2-core
  chrpath
  cmark-gfm
  curl
  dbus
  dbus-x11
  desktop-file-utils
  dpkg-dev
  gir1.2-gtk-4.0
  gnome-keyring
  groff-base
  gsettings-desktop-schemas
  help2man
  imagemagick
  libglib2.0-bin
  lintian
  locales
  meson
  ninja-build
  openbox
  openssl
  poppler-utils
  postgresql
  python3-gi
  python3-pyatspi
  python3-yaml
  systemd
  x11-utils
  xauth
  xdotool
  xinput
  xvfb
)

# Packages the tests need whose installation would start a system service (nginx on port 80):
# installed without starting it; the tests start their own, on loopback.
SERVICE_TEST_PACKAGES=(
  nginx
)

# Hunting flaky tests (flake-hunt.sh), on top of the test packages: load on every core.
FLAKE_HUNT_PACKAGES=(
  stress-ng
)

# Stops with SWIFT_PREREQUISITE when there is no swift; warns when it is another version.
ensure_swift() {
  local version
  if ! version=$(swift --version 2>/dev/null); then
    echo "$SWIFT_PREREQUISITE" >&2
    exit 1
  fi
  grep -q "Swift version $SWIFT_VERSION " <<<"$version" \
    || echo "Quire is built and tested with Swift $SWIFT_VERSION; this is: $(head -n 1 <<<"$version")" >&2
}

# Installs the named packages that are missing (apt-get as root, through sudo otherwise).
ensure_packages() {
  local missing=()
  local package
  for package in "$@"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' || missing+=("$package")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  local as_root=()
  [ "$(id -u)" -eq 0 ] || as_root=(sudo)
  echo "Installing Debian packages: ${missing[*]}"
  "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# Installs the named packages like ensure_packages, with Debian's policy-rc.d telling their
# maintainer scripts not to start any service meanwhile.
ensure_packages_without_starting() {
  local as_root=()
  [ "$(id -u)" -eq 0 ] || as_root=(sudo)
  local policy=/usr/sbin/policy-rc.d
  if [ -e "$policy" ]; then
    ensure_packages "$@"
    return
  fi
  "${as_root[@]}" sh -c "printf '#!/bin/sh\nexit 101\n' > $policy && chmod 755 $policy"
  local status=0
  ensure_packages "$@" || status=$?
  "${as_root[@]}" rm -f "$policy"
  return $status
}
