#!/usr/bin/env python3
"""Test of tools/draw_pipeline.py: from the chapter's sources it draws a valid SVG with one copy
and one wgmma per step, one lane per full and empty barrier with a phase flip per round, the
producer's first round of waits passing at once (parity 1 on new barriers) and later ones
blocking; a source with another stage count draws that many lanes (and --check then fails);
a source whose wait no longer reads as drawn stops the script, naming the line."""
import pathlib
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
TOOL = ROOT / "tools/draw_pipeline.py"
CHAPTER = "chapters/10_tensor_cores"
NS = "{http://www.w3.org/2000/svg}"
STEPS = 12  # the tile the script draws


def run(*args):
    return subprocess.run([sys.executable, str(TOOL), *map(str, args)], capture_output=True,
                          text=True)


def copy_sources(root, edit=None):
    """The chapter's headers under @p root, with @p edit = (file, old, new) applied."""
    (root / CHAPTER).mkdir(parents=True)
    for name in ("wgmma_kernel.cuh", "warp_specialized_kernel.cuh", "tensor_map.cuh"):
        text = (ROOT / CHAPTER / name).read_text()
        if edit and edit[0] == name:
            assert edit[1] in text, edit[1]
            text = text.replace(edit[1], edit[2])
        (root / CHAPTER / name).write_text(text)


def classes(svg, name):
    return [e for e in ET.parse(svg).getroot().iter() if e.get("class") == name]


def labels(svg):
    return [t.text for t in ET.parse(svg).getroot().iter(NS + "text")]


def main():
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        out = tmp / "ring.svg"
        result = run("--out", out)
        assert result.returncode == 0, result.stderr
        root = ET.parse(out).getroot()
        assert root.tag == NS + "svg", root.tag
        assert len(classes(out, "load")) == STEPS and len(classes(out, "wgmma")) == STEPS
        assert len(classes(out, "bytes")) == STEPS  # every copy arms expect_tx
        texts = labels(out)
        assert all(f"full[{s}]" in texts and f"empty[{s}]" in texts for s in range(4)), texts
        assert "full[4]" not in texts
        # Three rounds: each full barrier completes 3 phases, each empty barrier 3 (the last
        # release included).
        assert len(classes(out, "flip")) == 2 * STEPS, len(classes(out, "flip"))
        # Round 0 of the producer passes at once (parity 1 on a new barrier), the consumers'
        # first wait blocks until the first copy lands, and the producer later blocks on empty.
        assert len(classes(out, "wait-blocked")) >= 1 + (STEPS - 4)
        assert texts.count("p1") + texts.count("p0") == 2 * STEPS

        three = tmp / "three"
        copy_sources(three, ("wgmma_kernel.cuh", "kWgStages = 4;", "kWgStages = 3;"))
        result = run("--root", three, "--out", tmp / "three.svg")
        assert result.returncode == 0, result.stderr
        texts = labels(tmp / "three.svg")
        assert "full[2]" in texts and "full[3]" not in texts and "empty[3]" not in texts, texts
        stale = run("--root", three, "--check", ROOT / "docs/images/10_pipeline.svg")
        assert stale.returncode == 1 and "draw_pipeline.py --out" in stale.stderr, stale.stderr

        changed = tmp / "changed"
        copy_sources(changed, ("warp_specialized_kernel.cuh",
                               "&empty[stage], (here.parity() + 1) % 2);",
                               "&empty[stage], here.parity());"))
        result = run("--root", changed, "--out", tmp / "changed.svg")
        assert result.returncode == 1 and "(here.parity() + 1) % 2" in result.stderr, result.stderr
    print("draw_pipeline: OK")


if __name__ == "__main__":
    main()
