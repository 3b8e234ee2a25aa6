#!/usr/bin/env python3
"""Fails when a link of the built Doxygen site leads nowhere.

    python3 tools/check_site_links.py build/docs/html

Reads every .html file under the directory and checks each relative href and src: the file it
names must exist (relative to the page; a folder counts when it holds index.html), and a
#fragment must be an id or a name in that file (or in the page itself, for "#fragment" alone).
Links with a scheme (http:, https:, mailto:, javascript:, ...) and those starting with "//"
are not checked: nothing is fetched. Doxygen's own pages are checked too, not only the
chapters': a link is broken for the reader wherever it is.

It also fails on a page whose text block is empty (`<div class="textblock"></div>`): that is
what Doxygen makes of a Markdown page when its input filter (tools/doxygen_md_filter.py) does
not run, and Doxygen itself says nothing.

Exit 0 when every link resolves, 1 listing each broken one as `page: link (why)`, 2 on bad
arguments. Python 3 standard library only. The docs target runs it after Doxygen, so CI's docs
step fails on a broken link; tools/testing/check_site_links_test.py shows that it can fail.
"""
import argparse
import html.parser
import pathlib
import re
import sys
import urllib.parse

LINK_ATTRIBUTES = {"href", "src"}
EMPTY_TEXT_BLOCK = re.compile(r'<div class="textblock">\s*</div>')


class Page(html.parser.HTMLParser):
    """The ids and names one page defines, and the links it holds (with their line)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.anchors = set()
        self.links = []

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if value is None:
                continue
            if name == "id" or (name == "name" and tag == "a"):
                self.anchors.add(value)
            elif name in LINK_ATTRIBUTES:
                self.links.append((self.getpos()[0], value))

    handle_startendtag = handle_starttag


def parse(path, cache):
    if path not in cache:
        page = Page()
        text = path.read_text(encoding="utf-8", errors="replace")
        page.feed(text)
        page.close()
        page.empty = bool(EMPTY_TEXT_BLOCK.search(text))
        cache[path] = page
    return cache[path]


def problem(page_path, link, cache):
    """Why `link` on the page at `page_path` is broken, or None when it resolves."""
    link = link.strip()
    parts = urllib.parse.urlsplit(link)
    if parts.scheme or link.startswith("//"):
        return None  # external: not fetched
    target = page_path
    if parts.path:
        target = (page_path.parent / urllib.parse.unquote(parts.path)).resolve()
        if target.is_dir():
            target = target / "index.html"
        if not target.is_file():
            return "no such file"
    fragment = urllib.parse.unquote(parts.fragment)
    if not fragment or target.suffix.lower() not in (".html", ".htm"):
        return None
    if fragment not in parse(target, cache).anchors:
        return f"no id or name \"{fragment}\" in {target.name}"
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("html_dir", type=pathlib.Path, help="the site's html/ directory")
    args = parser.parse_args()
    root = args.html_dir.resolve()
    if not root.is_dir():
        print(f"check_site_links: {args.html_dir} is not a directory", file=sys.stderr)
        return 2
    cache = {}
    pages = sorted(root.rglob("*.html"))
    broken = []
    checked = 0
    for page_path in pages:
        if parse(page_path, cache).empty:
            broken.append(f"{page_path.relative_to(root)}: an empty page (its text block holds "
                          "nothing: did Doxygen's input filter run?)")
        for line, link in parse(page_path, cache).links:
            checked += 1
            why = problem(page_path, link, cache)
            if why:
                broken.append(f"{page_path.relative_to(root)}:{line}: {link} ({why})")
    for entry in broken:
        print(entry, file=sys.stderr)
    if broken:
        print(f"check_site_links: {len(broken)} problems ({checked} links in {len(pages)} "
              f"pages under {args.html_dir})", file=sys.stderr)
        return 1
    print(f"check_site_links: all {checked} links of {len(pages)} pages resolve")
    return 0


if __name__ == "__main__":
    sys.exit(main())
