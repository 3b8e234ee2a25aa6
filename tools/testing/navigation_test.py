#!/usr/bin/env python3
"""tools/navigation.py --check must fail, naming the page, once a chapter page's navigation line
is wrong, a chapter has no row in the README's chapter table, or a chapter's heading is renamed
(its neighbours' lines and its row then differ); a rewrite must fix each. A new chapter's page
gets its line, the README its row, whose empty 'teaches' cell is an error until it is written.
A page whose heading does not name its number, and text after a page's navigation line, fail
in both modes."""
import pathlib
import subprocess
import sys
import tempfile

TOOL = pathlib.Path(__file__).resolve().parent.parent / "navigation.py"
ALL = "[All chapters](../../README.md)"
BODY = """
Text.

```yaml
---
not: the rule
```

| a | b |
|---|---|
| 1 | 2 |
"""
PAGES = {
    "01_first": f"""# Chapter 01: the first step
{BODY}
---
{ALL} · Next: [Chapter 02: the second step](../02_second/README.md)
""",
    "02_second": f"""# Chapter 02: the second step
{BODY}
---
Previous: [Chapter 01: the first step](../01_first/README.md) · {ALL} · Next: [Chapter 03: the last step, for any n](../03_last/README.md)
""",
    "03_last": f"""# Chapter 03: the last step, for any n
{BODY}
---
Previous: [Chapter 02: the second step](../02_second/README.md) · {ALL}
""",
}
README = """# The book

| # | chapter | teaches |
|---|---|---|
| 01 | [the first step](chapters/01_first/README.md) | what the first teaches |
| 02 | [the second step](chapters/02_second/README.md) | what the second teaches, `a \\| b` |
| 03 | [the last step, for any n](chapters/03_last/README.md) | what the last teaches |

| chapter | other table |
|---|---|
| [02](chapters/02_second/README.md) | left as it is |
"""


def run(root, *args):
    return subprocess.run([sys.executable, str(TOOL), "--root", str(root), *args],
                          capture_output=True, text=True)


def expect_failure(root, *needles, mode="--check"):
    result = run(root, mode) if mode else run(root)
    assert result.returncode == 1, result.stderr
    for needle in needles:
        assert needle in result.stderr, f"'{needle}' not in:\n{result.stderr}"


def write(root, pages, readme):
    for name, text in pages.items():
        (root / "chapters" / name).mkdir(parents=True, exist_ok=True)
        (root / "chapters" / name / "README.md").write_text(text)
    (root / "README.md").write_text(readme)


def expect_tree(root, pages, readme):
    for name, text in pages.items():
        got = (root / "chapters" / name / "README.md").read_text()
        assert got == text, f"chapters/{name}/README.md:\n{got}\nnot\n{text}"
    assert (root / "README.md").read_text() == readme, (root / "README.md").read_text()


def rewrite_fixes(root):
    """A rewrite brings the tree back to PAGES and README, and the check passes again."""
    result = run(root)
    assert result.returncode == 0, result.stderr
    expect_tree(root, PAGES, README)
    assert run(root, "--check").returncode == 0


with tempfile.TemporaryDirectory() as tmp:
    root = pathlib.Path(tmp)
    (root / "chapters/04_no_page").mkdir(parents=True)  # no README.md: not a chapter
    write(root, PAGES, README)
    ok = run(root, "--check")
    assert ok.returncode == 0, ok.stderr
    assert run(root).stdout == "", "a rewrite of a tree that is right changed something"

    # A wrong navigation line: chapter 02's Next points back to chapter 01.
    write(root, {"02_second": PAGES["02_second"].replace(
        "Next: [Chapter 03: the last step, for any n](../03_last/README.md)",
        "Next: [Chapter 01: the first step](../01_first/README.md)")}, README)
    expect_failure(root, "chapters/02_second/README.md: its navigation line should read: "
                   "Previous: [Chapter 01: the first step](../01_first/README.md) · " + ALL)
    rewrite_fixes(root)

    # A chapter with no row in the README's table, and a row with no chapter.
    write(root, {}, README.replace(
        "| 03 | [the last step, for any n](chapters/03_last/README.md) | what the last teaches |\n",
        "| 05 | [gone](chapters/05_gone/README.md) | what it taught |\n"))
    expect_failure(root, "README.md: the chapter table has no row for chapters/03_last/README.md",
                   "README.md: the chapter table has a row 05, and there is no such chapter")
    assert "says nothing" not in run(root, "--check").stderr  # the missing row, named once
    # The rewrite adds the row; what the chapter teaches is typed, so its cell is empty and
    # both modes fail, naming it, until it is written.
    expect_failure(root, "README.md: the chapter table's row of chapters/03_last/README.md says "
                   "nothing under 'teaches'", mode=None)
    empty = README.replace("| what the last teaches |", "| |")
    expect_tree(root, PAGES, empty)
    expect_failure(root, "says nothing under 'teaches'")
    write(root, {}, README)
    assert run(root, "--check").returncode == 0

    # A renamed heading: chapter 03's neighbour and its row differ; a rewrite follows it.
    renamed = PAGES["03_last"].replace("# Chapter 03: the last step, for any n",
                                       "# Chapter 03: the very last step")
    write(root, {"03_last": renamed}, README)
    expect_failure(root, "chapters/02_second/README.md: its navigation line should read: "
                   "Previous: [Chapter 01: the first step](../01_first/README.md) · " + ALL +
                   " · Next: [Chapter 03: the very last step](../03_last/README.md)",
                   "README.md: the chapter table's row 03 should read: | 03 | [the very last "
                   "step](chapters/03_last/README.md) | what the last teaches |")
    assert "chapters/01_first" not in run(root, "--check").stderr
    assert run(root).returncode == 0
    old = "the last step, for any n"
    expect_tree(root, {"02_second": PAGES["02_second"].replace(old, "the very last step"),
                       "03_last": renamed}, README.replace(old, "the very last step"))
    write(root, PAGES, README)

    # The rows are kept in the chapters' order.
    rows = README.split("\n")
    write(root, {}, "\n".join(rows[:4] + [rows[5], rows[4]] + rows[6:]))
    expect_failure(root, "README.md: the chapter table's rows are not in the chapters' order")
    rewrite_fixes(root)

    # A new chapter with no navigation line yet: it gets one, its neighbour's Next, its row.
    new_page = "# Chapter 04: a new step\n\nText.\n\n"
    (root / "chapters/04_new").mkdir()
    (root / "chapters/04_new/README.md").write_text(new_page)
    expect_failure(root, "chapters/04_new/README.md: its navigation line should read: "
                   "Previous: [Chapter 03: the last step, for any n](../03_last/README.md) · " +
                   ALL, "chapters/03_last/README.md", "README.md: the chapter table has no row "
                   "for chapters/04_new/README.md")
    expect_failure(root, "chapters/04_new/README.md says nothing", mode=None)
    assert (root / "chapters/04_new/README.md").read_text() == new_page.rstrip("\n") + (
        "\n\n---\nPrevious: [Chapter 03: the last step, for any n](../03_last/README.md) · "
        f"{ALL}\n")
    assert (root / "chapters/03_last/README.md").read_text().endswith(
        f"· {ALL} · Next: [Chapter 04: a new step](../04_new/README.md)\n")
    assert "| 04 | [a new step](chapters/04_new/README.md) | |\n\n" in (
        root / "README.md").read_text()
    (root / "chapters/04_new/README.md").unlink()
    write(root, PAGES, README)

    # A heading that does not name its chapter's number, and text after a navigation line:
    # both modes fail, naming the page, and write nothing.
    write(root, {"02_second": PAGES["02_second"].replace("# Chapter 02:", "# Chapter 05:")},
          README)
    for mode in ["--check", None]:
        expect_failure(root, "chapters/02_second/README.md: its first heading must be "
                       "'# Chapter 02: title', not '# Chapter 05: the second step'", mode=mode)
    write(root, {"02_second": PAGES["02_second"] + "\nMore text.\n"}, README)
    for mode in ["--check", None]:
        expect_failure(root, "chapters/02_second/README.md: the navigation line must be the only "
                       "text after the page's last '---' line", mode=mode)
    assert (root / "chapters/02_second/README.md").read_text().endswith("More text.\n")
print("navigation_test: ok")
