#!/usr/bin/env python3
"""tools/check_site_links.py must pass a site whose links all resolve, and fail on one with
broken links, naming each: a missing page, a missing picture, an anchor missing from another
page and from the page itself; and on a page with an empty text block (what Doxygen makes when
its input filter did not run). External links are not checked."""
import pathlib
import subprocess
import sys
import tempfile

TOOL = pathlib.Path(__file__).resolve().parent.parent / "check_site_links.py"
GOOD = {
    "html/index.html": '<a href="page.html#part">x</a> <a href="#top">top</a> <p id="top"></p>'
                       '<img src="../images/a.svg"> <a href="https://example.com/none.html">w</a>'
                       '<a href="mailto:a@b.c">m</a> <a href="sub/">folder</a>',
    "html/page.html": '<h2><a class="anchor" id="part"></a>Part</h2><a name="old"></a>'
                      '<a href="index.html">back</a> <a href="page.html#old">old</a>',
    "html/sub/index.html": '<a href="../page.html#part">up</a>',
    "images/a.svg": "<svg/>",
}
BROKEN = {
    "html/index.html": GOOD["html/index.html"] + '<a href="HINTS.md#71-edge-tiles">hints</a>',
    "html/page.html": GOOD["html/page.html"] + '<a href="index.html#nowhere">a</a>'
                      '<a href="#gone">b</a><img src="../images/missing.svg">',
    "html/md_empty.html": '<div class="contents">\n<div class="textblock"></div></div>',
}


def run(files):
    with tempfile.TemporaryDirectory() as tmp:
        root = pathlib.Path(tmp)
        for name, text in files.items():
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            (root / name).write_text(text)
        return subprocess.run([sys.executable, str(TOOL), str(root / "html")],
                              capture_output=True, text=True)


ok = run(GOOD)
assert ok.returncode == 0, ok.stderr
assert "all 9 links of 3 pages resolve" in ok.stdout, ok.stdout
bad = run({**GOOD, **BROKEN})
assert bad.returncode == 1, bad.stdout + bad.stderr
for expected in ["index.html:1: HINTS.md#71-edge-tiles (no such file)",
                 'page.html:1: index.html#nowhere (no id or name "nowhere" in index.html)',
                 'page.html:1: #gone (no id or name "gone" in page.html)',
                 "page.html:1: ../images/missing.svg (no such file)",
                 "md_empty.html: an empty page",
                 "5 problems (13 links in 4 pages"]:
    assert expected in bad.stderr, f"missing {expected!r} in:\n{bad.stderr}"
print("check_site_links_test: ok")
