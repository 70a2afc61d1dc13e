# Debian 12 packages Quire needs, sourced by the run and test scripts.
# Keep each list sorted; a part that needs a new library adds it here and only here.

# Building and running the app.
APP_PACKAGES=(
  adwaita-icon-theme
  fonts-dejavu-core
  fonts-wqy-microhei
  hicolor-icon-theme
  libadwaita-1-dev
  libcairo2-dev
  libcmark-gfm-dev
  libcmark-gfm-extensions-dev
  libfontconfig-dev
  libglib2.0-bin
  libglib2.0-dev-bin
  libgtk-4-dev
  libgtksourceview-5-dev
  libmicrohttpd-dev
  libpango1.0-dev
  libpq-dev
  librsvg2-common
  libsecret-1-dev
  libsqlite3-dev
  libssl-dev
  libwebkitgtk-6.0-dev
  pkg-config
)

# Running the test suite and the install check, on top of the app's packages.
TEST_PACKAGES=(
  appstream
  cmark-gfm
  dbus
  dbus-x11
  desktop-file-utils
  gnome-keyring
  libglib2.0-bin
  meson
  ninja-build
  poppler-utils
  postgresql
  python3-yaml
  xauth
  xdotool
  xvfb
)

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
