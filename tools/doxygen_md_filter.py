#!/usr/bin/env python3
"""Doxygen's input filter for the Markdown pages: links that work on GitHub work on the site too.

    python3 tools/doxygen_md_filter.py --root REPO [--sources DIR]... PAGE.md

Doxygen (docs/Doxyfile.in, FILTER_PATTERNS) runs it on every .md file it reads and reads the
page from its output; the file itself is not changed, so the pages stay plain GitHub Markdown,
with no Doxygen-only syntax in them. Three things differ between GitHub and Doxygen 1.9, and
the filter bridges them:

- Headings. GitHub gives every heading an id made from its text ("## 7.1 Edge tiles" becomes
  #71-edge-tiles); Doxygen gives it none that a link can name. The filter appends `{#LABEL}` to
  each heading of level 2 to 6, LABEL being the page's name (md_exercises_07_tiled_matmul_HINTS)
  and GitHub's id, so that every label is unique on the site.
- Links to a heading: `[text](HINTS.md#71-edge-tiles)` or `[text](#71-edge-tiles)` become
  `[text](@ref LABEL)`, which Doxygen turns into a link to that page and heading; a link to a
  page's title (level 1) becomes a link to the page.
- Links to a source file that has a page on the site (a file under one of --sources with one of
  the extensions Doxygen reads) become `[text](@ref /absolute/path)`, a link to its page.
- The comments that mark a measured number and its quotes (tools/measured_numbers.py) are
  removed: GitHub shows nothing of them, but Doxygen drops the space after each one.

A link the filter cannot resolve (no such file, no such heading) is left as it is, so that the
site's link check (tools/check_site_links.py) reports it. Code blocks are left alone, and no
line is added or removed: Doxygen's warnings keep their line numbers. Tested by
tools/testing/doxygen_md_filter_test.py (CTest: docs.md_filter_resolves_github_links).
"""
import argparse
import pathlib
import re
import sys
import unicodedata
import urllib.parse

from measured_numbers import strip_markers
from pages import with_code_flags

SOURCE_EXTENSIONS = {".hpp", ".cuh", ".cu", ".cpp"}
HEADING = re.compile(r"^(#{1,6})[ \t]+(.*?)[ \t]*#*[ \t]*$")
# [text](target); the text may go on over a line break (not over a blank line).
LINK = re.compile(r"(?<!!)\[((?:[^\[\]\n]|\n(?![ \t]*\n)|\[[^\[\]]*\])*)\]\(([^()\s]+)\)")


def outside_code(lines):
    """Yields (index, line) of the lines that are not inside a fenced code block (fence lines
    count as code: pages.with_code_flags, the rule every page tool shares)."""
    for index, line, in_code in with_code_flags(lines):
        if not in_code:
            yield index, line


def github_id(text):
    """The id GitHub gives a heading: its text as shown, lower case, without punctuation, each
    space a hyphen."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", text)  # a link shows its text
    text = re.sub(r"<[^>]+>", "", text)                       # HTML tags show nothing
    text = text.replace("`", "").replace("*", "")
    kept = []
    for char in text.lower():
        category = unicodedata.category(char)
        if char in " -_" or category[0] in "LNM":
            kept.append(char)
    return "".join(kept).replace(" ", "-")


def page_name(path, root):
    """Doxygen's name of the page of a Markdown file (with STRIP_FROM_PATH = the repository)."""
    relative = path.relative_to(root) if root in path.parents else path
    relative = relative.with_suffix("")
    return "md_" + re.sub(r"[^A-Za-z0-9_]", "_", "_".join(relative.parts))


def headings(path, root, cache):
    """{GitHub id: label} of the page's headings; level 1 maps to None (the page itself)."""
    if path not in cache:
        lines = path.read_text(encoding="utf-8").split("\n")
        ids, seen = {}, {}
        for index, line in outside_code(lines):
            match = HEADING.match(line)
            if not match:
                continue
            slug = github_id(match.group(2))
            if slug in seen:  # GitHub numbers repeated ids: x, x-1, x-2
                seen[slug] += 1
                slug = f"{slug}-{seen[slug]}"
            else:
                seen[slug] = 0
            label = None
            if len(match.group(1)) > 1 and slug:
                label = f"{page_name(path, root)}_{slug}"
            ids[slug] = (index, label)
        cache[path] = ids
    return cache[path]


def rewrite_link(match, page, args, cache):
    text, target = match.group(1), match.group(2)
    parts = urllib.parse.urlsplit(target)
    if parts.scheme or target.startswith("//") or target.startswith("@"):
        return match.group(0)
    path = page if not parts.path else (page.parent / urllib.parse.unquote(parts.path)).resolve()
    if not path.is_file():
        return match.group(0)
    if path.suffix == ".md":
        if not parts.fragment:
            return match.group(0)
        entry = headings(path, args.root, cache).get(urllib.parse.unquote(parts.fragment))
        if entry is None:
            return match.group(0)
        label = entry[1]
        if label is None:  # the page's title: the page itself
            return match.group(0) if path == page else f"[{text}]({parts.path})"
        return f"[{text}](@ref {label})"
    if path.suffix in SOURCE_EXTENSIONS and any(
            source == path or source in path.parents for source in args.sources):
        return f"[{text}](@ref {path})"
    return match.group(0)


def main():
    """Writes the filtered page; if the filter fails, the page as it is and a link to a page
    that does not exist, because Doxygen ignores a filter's exit status: the site's link check
    then fails, naming the page."""
    try:
        return filtered_page()
    except Exception:  # pylint: disable=broad-except
        import traceback
        traceback.print_exc()
        sys.stdout.write(pathlib.Path(sys.argv[-1]).read_text(encoding="utf-8", errors="replace")
                         + '\n<a href="doxygen_md_filter_failed_on_this_page">doxygen_md_filter.py '
                         'failed on this page: see the build log</a>\n')
        return 1


def filtered_page():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=pathlib.Path, required=True,
                        help="the repository (Doxygen's STRIP_FROM_PATH)")
    parser.add_argument("--sources", type=pathlib.Path, action="append", default=[],
                        help="a folder whose source files have pages on the site (repeatable)")
    parser.add_argument("page", type=pathlib.Path)
    args = parser.parse_args()
    args.root = args.root.resolve()
    args.sources = [source.resolve() for source in args.sources]
    page = args.page.resolve()
    lines = page.read_text(encoding="utf-8").split("\n")
    cache = {}
    labels = {index: label for index, label in headings(page, args.root, cache).values()}
    # Links are rewritten in each run of lines between code blocks, as one text, so that a
    # link broken over two lines is found; the rewrite keeps the text's line breaks.
    prose = [index for index, _ in outside_code(lines)]
    runs = []
    for index in prose:
        if runs and runs[-1][-1] == index - 1:
            runs[-1].append(index)
        else:
            runs.append([index])
    for run in runs:
        text = "\n".join(lines[index] for index in run)
        text = LINK.sub(lambda m: rewrite_link(m, page, args, cache), text)
        for index, line in zip(run, text.split("\n")):
            if labels.get(index):
                line = f"{line.rstrip()} {{#{labels[index]}}}"
            lines[index] = line
    sys.stdout.write("\n".join(strip_markers(lines)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
