#!/usr/bin/env python3
"""Writes the AppStream metainfo with the screenshots the UI tests save in data/screenshots/.

    metainfo-screenshots.py BASE_URL IN OUT

AppStream wants each screenshot as an absolute web address, and the project has no web address of
its own: a packager who publishes data/screenshots/ (a release's files on a forge, a web site)
passes where they are served as BASE_URL (meson: -Dscreenshot_url=https://…/data/screenshots/).
Without one, meson installs the metainfo as it is, without screenshots, rather than name an
address that serves nothing. Every image named must exist in data/screenshots/.
"""
import os
import sys
from xml.sax.saxutils import escape

# file, caption; the first is the default screenshot.
SCREENSHOTS = [
    ("writing-surface-light.png", "The editor with the preview beside it"),
    ("writing-surface-dark.png", "The same in the dark style"),
    ("window-360.png", "The window at phone width"),
    ("attachments.png", "An image in an article and in its preview"),
]


def main(base_url, source, target):
    if not base_url.startswith("https://"):
        sys.exit(f"metainfo-screenshots: {base_url!r} is not an https:// address")
    base_url = base_url if base_url.endswith("/") else base_url + "/"
    folder = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "screenshots")
    missing = [name for name, _ in SCREENSHOTS if not os.path.isfile(os.path.join(folder, name))]
    if missing:
        sys.exit(f"metainfo-screenshots: not in data/screenshots: {', '.join(missing)}")
    with open(source, encoding="utf-8") as file:
        text = file.read()
    anchor = "  <content_rating"
    if anchor not in text or "<screenshots>" in text:
        sys.exit("metainfo-screenshots: the metainfo has no <content_rating> to insert before, or has screenshots already")
    lines = ["  <screenshots>"]
    for index, (name, caption) in enumerate(SCREENSHOTS):
        kind = ' type="default"' if index == 0 else ""
        lines += [
            f"    <screenshot{kind}>",
            f"      <caption>{escape(caption)}</caption>",
            f"      <image>{escape(base_url + name)}</image>",
            "    </screenshot>",
        ]
    lines.append("  </screenshots>\n")
    with open(target, "w", encoding="utf-8") as file:
        file.write(text.replace(anchor, "\n".join(lines) + anchor, 1))


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    main(*sys.argv[1:])
