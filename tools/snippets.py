#!/usr/bin/env python3
"""Keeps the code shown on the pages equal to the code that runs.

A page shows a region of a source file as a fenced code block right under a marker line:

    <!-- snippet: chapters/06_blelloch_scan/blelloch_tree.cuh tree_up_sweep -->
    ```cpp
    ...the lines between the two `//! [tree_up_sweep]` lines of that file...
    ```

The marker is an HTML comment, invisible on GitHub and in the Doxygen site; the block is plain
Markdown, so both show the same code. Paths are relative to the repository's root.

    python3 tools/snippets.py          # rewrite every page's blocks from the sources
    python3 tools/snippets.py --check  # fail (exit 1) naming each page and region that drifted

The pages, the command line and the report are those of tools/pages.py. The check is a CTest
test (docs.snippets), part of the README's test command.
"""
import pathlib
import re
import sys
import textwrap

import pages  # beside this script: what the tools that check the pages share

ROOT = pages.ROOT
MARKER = re.compile(r"^<!-- snippet: (\S+) (\S+) -->$")
LANGUAGE = {".cu": "cpp", ".cuh": "cpp", ".cpp": "cpp", ".hpp": "cpp", ".py": "python",
            ".sh": "bash", ".cmake": "cmake", ".txt": "cmake"}


class SnippetError(Exception):
    pass


def region(path, name):
    """The lines between the two `//! [name]` (or `# [name]`) lines of @p path, dedented."""
    source = ROOT / path
    if not source.is_file():
        raise SnippetError(f"no file {path}")
    lines = source.read_text().splitlines()
    tag = re.compile(r"^\s*(//!|#) \[" + re.escape(name) + r"\]\s*$")
    found = [i for i, line in enumerate(lines) if tag.match(line)]
    if len(found) != 2:
        raise SnippetError(f"{path}: expected two '[{name}]' marker lines, found {len(found)}")
    return textwrap.dedent("\n".join(lines[found[0] + 1:found[1]])).strip("\n")


def render(path, name):
    """The fenced block that shows region @p name of @p path."""
    language = LANGUAGE.get(pathlib.PurePath(path).suffix, "")
    return [f"```{language}", *region(path, name).splitlines(), "```"]


def fill(page_text, page_name):
    """@p page_text with every block under a marker rewritten; raises SnippetError."""
    lines = page_text.split("\n")
    out, i = [], 0
    while i < len(lines):
        out.append(lines[i])
        match = MARKER.match(lines[i])
        i += 1
        if not match:
            continue
        path, name = match.groups()
        try:
            out.extend(render(path, name))
        except SnippetError as error:
            raise SnippetError(f"{page_name}: {error}") from None
        if i < len(lines) and lines[i].startswith("```"):  # replace the block that is there
            end = i + 1
            while end < len(lines) and lines[end] != "```":
                end += 1
            if end == len(lines):
                raise SnippetError(f"{page_name}: the block under '{path} {name}' never ends")
            i = end + 1
    return "\n".join(out)


def changed_regions(old, new):
    """The markers whose blocks differ between two versions of a page."""
    def blocks(text):
        result, lines = {}, text.split("\n")
        for i, line in enumerate(lines):
            match = MARKER.match(line)
            if match:
                end = i + 2
                while end < len(lines) and lines[end] != "```":
                    end += 1
                result[match.groups()] = lines[i + 1:end + 1]
        return result
    before, after = blocks(old), blocks(new)
    return [f"{path} [{name}]" for (path, name) in after if before.get((path, name)) != after[(path, name)]]


def main():
    args = pages.command_line(__doc__.splitlines()[0])
    global ROOT
    ROOT = args.root
    updates, drifted, errors = {}, [], []
    for page in pages.under(ROOT):
        name = pages.relative(page, ROOT)
        text = page.read_text()
        try:
            new = fill(text, name)
        except SnippetError as error:
            errors.append(str(error))
            continue
        if new == text:
            continue
        updates[page] = new
        drifted.extend([f"{name}: its block of {where} differs from the source"
                        for where in changed_regions(text, new)] or
                       [f"{name}: a code block differs from its source"])
    return pages.finish(args, updates, errors, drifted,
                        "run `python3 tools/snippets.py` to update the pages")


if __name__ == "__main__":
    sys.exit(main())
