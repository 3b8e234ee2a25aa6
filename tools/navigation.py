#!/usr/bin/env python3
"""Writes the book's navigation from the chapter list, so that adding or renaming a chapter
edits nothing by hand.

The chapter list is the set of directories chapters/NN_name that hold a README.md, in number
order. A chapter's title is its page's first heading, `# Chapter NN: title`, NN being the
number of its directory. From the list and the titles come:

- each chapter page's navigation line: the page's last line, under a `---` line,

      ---
      Previous: [Chapter 07: ...](../07_tiled_matmul/README.md) · [All chapters](../../README.md) · Next: [...](...)

  with no "Previous" on the first chapter and no "Next" on the last. A page that has none gets
  one at its end; nothing else may follow the page's last `---` line. (No marker comment: the
  site's filter, tools/doxygen_md_filter.py, has nothing to remove.)
- the number and link cells of the README's chapter table, the table under the header
  `| # | chapter | teaches |`: one row a chapter, in order,
  `| NN | [title](chapters/NN_name/README.md) | what it teaches |`. The last cell is typed, and
  kept. A rewrite drops the row of a chapter that is gone and adds the row of a new chapter
  with that cell empty; an empty cell is an error, so that the row is not published without it.

    python3 tools/navigation.py          # rewrite the navigation of every page from the list
    python3 tools/navigation.py --check  # fail (exit 1) naming each page whose navigation differs

Either way it fails on a chapter page whose first heading is not `# Chapter NN: title`, on two
chapters with one number, and on an empty 'teaches' cell. Where a page's code blocks are, the
command line and the report are those of tools/pages.py. The check is a CTest test
(docs.navigation), part of the README's test command.
"""
import re
import sys

import pages  # beside this script: what the tools that check the pages share
from pages import with_code_flags

ROOT = pages.ROOT
CHAPTER_DIR = re.compile(r"^([0-9]{2})_\w+$")
HEADING = re.compile(r"^# Chapter ([0-9]{2}): (\S.*?)\s*$")
ALL_CHAPTERS = "[All chapters](../../README.md)"
TABLE_HEADER = "| # | chapter | teaches |"
# | number | link | what it teaches |; a `|` inside a cell is written `\|`.
TABLE_ROW = re.compile(r"^\|((?:\\\||[^|])*)\|((?:\\\||[^|])*)\|(.*)\|\s*$")


class NavigationError(Exception):
    pass


class Chapter:
    """One chapter: its number ("08"), directory name and title (without "Chapter 08: ")."""

    def __init__(self, number, directory, title):
        self.number, self.directory, self.title = number, directory, title

    def link(self):
        """The link to this chapter from another chapter's page."""
        return f"[Chapter {self.number}: {self.title}](../{self.directory}/README.md)"

    def page(self):
        return f"chapters/{self.directory}/README.md"


def chapter_list():
    """The chapters in number order; raises NavigationError naming each bad page."""
    found, errors = [], []
    for directory in sorted((ROOT / "chapters").iterdir()):
        match = CHAPTER_DIR.match(directory.name)
        if not match or not (directory / "README.md").is_file():
            continue
        page = f"chapters/{directory.name}/README.md"
        lines = (directory / "README.md").read_text().split("\n")
        first = next((line for _, line, in_code in with_code_flags(lines)
                      if not in_code and line.startswith("# ")), "")
        heading = HEADING.match(first)
        if not heading or heading.group(1) != match.group(1):
            errors.append(f"{page}: its first heading must be '# Chapter {match.group(1)}: "
                          f"title', not '{first}'")
            continue
        found.append(Chapter(match.group(1), directory.name, heading.group(2)))
    numbers = [chapter.number for chapter in found]
    for number in sorted(set(numbers)):
        if numbers.count(number) > 1:
            errors.append(f"two or more chapters have the number {number}: " + ", ".join(
                chapter.directory for chapter in found if chapter.number == number))
    if errors:
        raise NavigationError("\n".join(errors))
    return found


def navigation_line(chapters, index):
    """The navigation line of chapter @p index of @p chapters."""
    parts = [ALL_CHAPTERS]
    if index > 0:
        parts.insert(0, f"Previous: {chapters[index - 1].link()}")
    if index + 1 < len(chapters):
        parts.append(f"Next: {chapters[index + 1].link()}")
    return " · ".join(parts)


def with_footer(text, line, page):
    """@p text with its navigation line (everything after its last `---` line) set to @p line."""
    lines = text.split("\n")
    # A `---` line right under text would underline a heading; a rule has a blank line above.
    rules = [index for index, content, in_code in with_code_flags(lines)
             if not in_code and content.strip() == "---"
             and (index == 0 or not lines[index - 1].strip())]
    after = [content for content in lines[rules[-1] + 1:] if content.strip()] if rules else []
    if len(after) == 1 and ALL_CHAPTERS in after[0]:
        return "\n".join(lines[:rules[-1] + 1] + [line, ""])
    if any(ALL_CHAPTERS in content for content in after):
        raise NavigationError(f"{page}: the navigation line must be the only text after the "
                              "page's last '---' line")
    while lines and not lines[-1].strip():  # no navigation yet: add it at the end
        lines.pop()
    return "\n".join(lines + ["", "---", line, ""])


def with_table(text, chapters):
    """(@p text with the README's chapter table rewritten from @p chapters, notes on what
    differed, the chapters that had no row, the chapters whose row says nothing under
    'teaches')."""
    lines = text.split("\n")
    starts = [index for index, line in enumerate(lines) if line.strip() == TABLE_HEADER]
    if len(starts) != 1:
        raise NavigationError(f"README.md: expected one chapter table under the header "
                              f"'{TABLE_HEADER}', found {len(starts)}")
    first = starts[0] + 2  # under the header and the |---| line
    end = first
    while end < len(lines) and lines[end].startswith("|"):
        end += 1
    rows, notes = {}, []
    for line in lines[first:end]:
        match = TABLE_ROW.match(line)
        if not match or not match.group(1).strip().isdigit():
            raise NavigationError(f"README.md: a row of the chapter table is not "
                                  f"'| NN | [title](link) | what it teaches |': {line}")
        rows.setdefault(int(match.group(1)), (line, match.group(3).strip()))
    numbers = {int(chapter.number) for chapter in chapters}
    for number in sorted(set(rows) - numbers):
        notes.append(f"README.md: the chapter table has a row {number:02d}, and there is no "
                     "such chapter")
    table, missing, empty = [], [], []
    for chapter in chapters:
        old, teaches = rows.get(int(chapter.number), (None, ""))
        title = chapter.title.replace("|", "\\|")
        cells = [chapter.number, f"[{title}]({chapter.page()})", teaches]
        row = "|" + "|".join(f" {cell} " if cell else " " for cell in cells) + "|"
        if old is None:
            notes.append(f"README.md: the chapter table has no row for {chapter.page()}")
            missing.append(chapter)
        elif old != row:
            notes.append(f"README.md: the chapter table's row {chapter.number} should read: {row}")
        if not teaches:
            empty.append(chapter)
        table.append(row)
    return "\n".join(lines[:first] + table + lines[end:]), notes, missing, empty


def main():
    args = pages.command_line(__doc__.splitlines()[0])
    global ROOT
    ROOT = args.root
    errors, drifted = [], []
    fix = "run `python3 tools/navigation.py` to update the pages"
    try:
        chapters = chapter_list()
    except NavigationError as error:
        return pages.finish(args, {}, [str(error)], [], fix)
    updates = {}
    for index, chapter in enumerate(chapters):
        path = ROOT / chapter.page()
        text = path.read_text()
        line = navigation_line(chapters, index)
        try:
            new = with_footer(text, line, chapter.page())
        except NavigationError as error:
            errors.append(str(error))
            continue
        if new != text:
            updates[path] = new
            drifted.append(f"{chapter.page()}: its navigation line should read: {line}")
    readme = ROOT / "README.md"
    text = readme.read_text()
    try:
        new, notes, missing, empty = with_table(text, chapters)
        if new != text:
            updates[readme] = new
            drifted.extend(notes or ["README.md: the chapter table's rows are not in the "
                                     "chapters' order"])
        # --check names a missing row once; a rewrite adds it, and asks for its last cell.
        errors.extend(f"README.md: the chapter table's row of {chapter.page()} says nothing "
                      "under 'teaches': write what the chapter teaches"
                      for chapter in empty if not (args.check and chapter in missing))
    except NavigationError as error:
        errors.append(str(error))
    return pages.finish(args, updates, errors, drifted, fix)


if __name__ == "__main__":
    sys.exit(main())
