#!/usr/bin/env python3
"""Keeps a measured number that one page quotes from another equal to where it was measured.

A number is defined once, on the page that measured it (in the table or sentence that reports
it, with the GPU and the date), and quoted elsewhere, each between two HTML comments that name
it:

    | `copies_spread` | 2.8924 ms, <!-- number: ch09.copies_spread.4096.vs_cublas -->0.92<!-- /number -->x |
    ... at <!-- quote: ch09.copies_spread.4096.vs_cublas -->0.92<!-- /quote -->x `cublasSgemm` ...

A name is letters, digits, `_`, `.` and `-`; the value is the text between the two comments, on
one line. Where the number is inside a code block (a program's output shown as it printed it),
where a comment would show, the page names it in a comment just above the block instead: one
line a number, its name and a regular expression that matches one line of the block, whose
first group is the number:

    <!-- numbers in the next block:
    ch08.scan_decoupled_lookback.gbs ^ +scan_decoupled_lookback +(?:\\S+ +){4}(\\S+)
    -->

The comments are invisible on GitHub; the site's filter (tools/doxygen_md_filter.py) removes
them before Doxygen reads the page, because Doxygen would eat the space after each one.

    python3 tools/measured_numbers.py          # rewrite every quote from its definition
    python3 tools/measured_numbers.py --check  # fail (exit 1) naming each quote that differs

Either way it fails naming each quote of a name that is not defined, each name defined twice
and each comment left open. The pages, where their code blocks are, the command line and the
report are those of tools/pages.py. The check is a CTest test (docs.numbers), part of the
README's test command. (The file is not called numbers.py:
that name would hide Python's own `numbers` module from every script in tools/, and numpy,
which tools/compare.py's charts load, imports it.)
"""
import re
import sys

import pages  # beside this script: what the tools that check the pages share
from pages import FENCE, with_code_flags

NAME = r"[A-Za-z0-9_.-]+"
MARKER = re.compile(r"<!-- (number|quote): (" + NAME + r") -->(.*?)<!-- /\1 -->")
ANY_COMMENT = re.compile(r"<!-- /?(?:number|quote)\b[^>]*-->")
CODE_SPAN = re.compile(r"(`+)(?!`).*?(?<!`)\1(?!`)")
BLOCK_START = "<!-- numbers in the next block:"
BLOCK_LINE = re.compile(r"^(" + NAME + r")\s+(\S.*)$")


class Marker:
    """One definition or quote: where it is and what it says."""

    def __init__(self, kind, name, value, page, line):
        self.kind, self.name, self.value, self.page, self.line = kind, name, value, page, line

    def where(self):
        return f"{self.page}:{self.line}"


def prose_segments(line):
    """Splits @p line into (is_prose, text) pieces: inline code spans are not prose."""
    pieces, start = [], 0
    for match in CODE_SPAN.finditer(line):
        pieces.append((True, line[start:match.start()]))
        pieces.append((False, match.group(0)))
        start = match.end()
    pieces.append((True, line[start:]))
    return pieces


def strip_markers(lines):
    """The lines as the site shows them: inline markers removed, a block's comment of numbers
    blanked (the number of lines stays, so that Doxygen's warnings keep their line numbers)."""
    out, in_block_comment = [], False
    for _, line, in_code in with_code_flags(lines):
        if in_code:
            out.append(line)
        elif in_block_comment or line.strip() == BLOCK_START:
            in_block_comment = line.strip() != "-->"
            out.append("")
        else:
            out.append("".join(ANY_COMMENT.sub("", text) if prose else text
                               for prose, text in prose_segments(line)))
    return out


def scan(text, page):
    """(markers, errors) of one page."""
    lines = text.split("\n")
    in_code = [code for _, _, code in with_code_flags(lines)]
    markers, errors = [], []
    index = 0
    while index < len(lines):
        line = lines[index]
        if in_code[index]:
            index += 1
            continue
        if line.strip() == BLOCK_START:
            index = block_numbers(lines, in_code, index, page, markers, errors)
            continue
        for prose, piece in prose_segments(line):
            if not prose:
                continue
            for match in MARKER.finditer(piece):
                markers.append(Marker(match.group(1), match.group(2), match.group(3), page,
                                      index + 1))
            for comment in ANY_COMMENT.findall(MARKER.sub("", piece)):
                errors.append(f"{page}:{index + 1}: '{comment}' is not one of a pair on one "
                              "line (<!-- number: NAME -->VALUE<!-- /number -->)")
        index += 1
    return markers, errors


def block_numbers(lines, in_code, start, page, markers, errors):
    """Reads the comment of numbers that starts at line @p start and defines each number it
    names from the code block under it; returns the index of the line after the comment."""
    definitions, index = [], start + 1
    while index < len(lines) and lines[index].strip() != "-->":
        match = BLOCK_LINE.match(lines[index].strip())
        if not match:
            errors.append(f"{page}:{index + 1}: expected 'NAME REGEX' in the comment of numbers")
        else:
            try:
                definitions.append((match.group(1), re.compile(match.group(2)), index + 1))
            except re.error as error:
                errors.append(f"{page}:{index + 1}: bad regular expression for "
                              f"{match.group(1)}: {error}")
        index += 1
    if index == len(lines):
        errors.append(f"{page}:{start + 1}: the comment of numbers never ends (a line '-->')")
        return index
    after = index + 1
    fence = after
    while fence < len(lines) and not lines[fence].strip():
        fence += 1
    if fence == len(lines) or not FENCE.match(lines[fence]) or not in_code[fence]:
        errors.append(f"{page}:{start + 1}: a comment of numbers must stand right above a "
                      "fenced code block")
        return after
    block = []
    line = fence + 1
    while line < len(lines) and in_code[line]:
        block.append(line)
        line += 1
    for name, pattern, number in definitions:
        found = [(where, match) for where in block
                 for match in [pattern.search(lines[where])] if match]
        if len(found) != 1 or pattern.groups < 1:
            errors.append(f"{page}:{number}: the expression for {name} must have a group and "
                          f"match one line of the block below; it matched {len(found)}")
            continue
        where, match = found[0]
        markers.append(Marker("number", name, match.group(1), page, where + 1))
    return after


def rewrite(text, definitions):
    """@p text with every quote of a defined name set to its definition's value."""
    def quote(match):
        if match.group(1) != "quote" or match.group(2) not in definitions:
            return match.group(0)
        value = definitions[match.group(2)].value
        return f"<!-- quote: {match.group(2)} -->{value}<!-- /quote -->"
    lines = text.split("\n")
    for index, line, in_code in with_code_flags(lines):
        if not in_code:
            lines[index] = "".join(MARKER.sub(quote, piece) if prose else piece
                                   for prose, piece in prose_segments(line))
    return "\n".join(lines)


def main():
    args = pages.command_line(__doc__.splitlines()[0])
    texts, markers, errors = {}, [], []
    for page in pages.under(args.root):
        name = pages.relative(page, args.root)
        texts[page] = page.read_text()
        found, page_errors = scan(texts[page], name)
        markers += found
        errors += page_errors
    definitions, seen = {}, {}
    for marker in markers:
        if marker.kind == "number":
            seen.setdefault(marker.name, []).append(marker)
    for name, where in seen.items():
        if len(where) > 1:
            errors.append(f"{name} is defined {len(where)} times: "
                          + ", ".join(m.where() for m in where))
        else:
            definitions[name] = where[0]
    drifted = []
    for marker in markers:
        if marker.kind != "quote":
            continue
        if marker.name not in seen:
            errors.append(f"{marker.where()}: quotes {marker.name}, which no page defines")
        elif marker.name in definitions and marker.value != definitions[marker.name].value:
            source = definitions[marker.name]
            drifted.append(f"{marker.where()}: quotes {marker.name} as '{marker.value}', its "
                           f"source {source.where()} says '{source.value}'")
    updates = {}
    for page, text in texts.items():
        new = rewrite(text, definitions)
        if new != text:
            updates[page] = new
    return pages.finish(args, updates, errors, drifted,
                        "run `python3 tools/measured_numbers.py` to update the quotes")


if __name__ == "__main__":
    sys.exit(main())
