#!/usr/bin/env python3
"""The Colab notebooks (notebooks/*.ipynb) are tested, not hoped for.

    notebook_test.py check [NOTEBOOK...]             # valid notebook, exercise copies equal
    notebook_test.py run [--all] [--save DIR] [NOTEBOOK...]  # execute its cells headlessly
    notebook_test.py self-test                       # check must fail on broken notebooks

`check` fails (exit 1, naming each problem) on a notebook that is not valid JSON or not a
valid notebook (the nbformat schema where nbformat is importable, else a check of the
structure with the json module: it says which ran), on a stored output or execution count (a
result in a notebook comes from the learner's run, never from the repository), on a tag other
than `gpu`, and, with --exercise-state, on a `%%writefile PATH` cell whose text differs from
the repository's PATH: the exercise a learner edits in the notebook is the one the repository
ships. That comparison is a check of the repository's state (CMake passes --exercise-state
where TUTORIAL_CHECK_EXERCISE_STATE is on, as in CI): in a learner's checkout the exercise
file holds the learner's work, and must not fail the tests.

`run` executes the notebook with nbclient and ipykernel against a copy of this checkout (the
files git tracks or would track), not a clone: the first code cell takes the checkout from the
environment variable TUTORIAL_CHECKOUT. Cells tagged `gpu` are left out unless --all is given
(on a GPU machine: `CUDAARCHS=75-virtual` builds what a T4 runs). It fails when a cell raises
and, with --exercise-state, when a `%%writefile` cell wrote something else than the
repository's file; --save writes
the executed notebooks to DIR. Without nbclient, nbformat or ipykernel it exits 77 (CTest:
skipped), saying what is missing, or 1 where TUTORIAL_NOTEBOOK_REQUIRED is set (CI sets it,
so that a failed install cannot pass as a skip).

`self-test` runs `check` on broken copies of a small notebook (not JSON, a cell without its
source, a stored output, an unknown tag, an exercise copy that drifted) and fails unless each
is caught. CTest: notebook.valid, notebook.checks_catch_breakage, notebook.cells_run.
"""
import argparse
import copy
import importlib.util
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
TAGS = {"gpu"}  # gpu: needs a GPU (builds and runs CUDA programs); left out of `run` by default
CELL_TYPES = {"markdown", "code", "raw"}
WRITEFILE = "%%writefile "


def source_of(cell):
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else source


def writefile_cells(notebook):
    """(cell index, path, text the cell writes) of each `%%writefile PATH` code cell."""
    for index, cell in enumerate(notebook.get("cells", [])):
        text = source_of(cell)
        if cell.get("cell_type") == "code" and text.startswith(WRITEFILE):
            first, _, body = text.partition("\n")
            # IPython's %%writefile writes the cell's text after the first line, and a cell's
            # text ends without the file's last newline: the magic adds it.
            yield index, first[len(WRITEFILE):].strip(), body + "\n"


def structure_problems(notebook):
    """What is wrong with @p notebook (parsed JSON) as an nbformat 4 notebook."""
    if not isinstance(notebook, dict):
        return ["the top level is not a JSON object"]
    problems = []
    if notebook.get("nbformat") != 4 or not isinstance(notebook.get("nbformat_minor"), int):
        problems.append("nbformat must be 4, nbformat_minor an integer")
    metadata = notebook.get("metadata")
    if not isinstance(metadata, dict) or not isinstance(metadata.get("kernelspec"), dict):
        problems.append("metadata.kernelspec is missing")
    cells = notebook.get("cells")
    if not isinstance(cells, list) or not cells:
        return problems + ["cells is missing or empty"]
    for index, cell in enumerate(cells):
        where = f"cell {index}"
        if not isinstance(cell, dict) or cell.get("cell_type") not in CELL_TYPES:
            problems.append(f"{where}: not a cell (cell_type one of {sorted(CELL_TYPES)})")
            continue
        source = cell.get("source")
        if not (isinstance(source, str) or
                (isinstance(source, list) and all(isinstance(s, str) for s in source))):
            problems.append(f"{where}: source must be a string or a list of strings")
        if not isinstance(cell.get("metadata"), dict):
            problems.append(f"{where}: metadata must be an object")
        if cell["cell_type"] == "code" and (
                not isinstance(cell.get("outputs"), list) or "execution_count" not in cell):
            problems.append(f"{where}: a code cell needs outputs and execution_count")
    return problems


def problems_of(path, compare_copies=True):
    """Every problem of the notebook at @p path; prints how it was validated. With
    @p compare_copies, a `%%writefile` cell must equal the repository's file."""
    try:
        notebook = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        return [f"not a JSON file: {error}"]
    problems = structure_problems(notebook)
    if importlib.util.find_spec("nbformat"):
        import nbformat
        try:
            nbformat.validate(nbformat.from_dict(notebook), version=4)
            print(f"{path.name}: valid for nbformat {nbformat.__version__}'s schema")
        except Exception as error:  # nbformat's ValidationError, or a broken structure
            problems.append(f"nbformat's schema: {str(error).splitlines()[0]}")
    else:
        print(f"{path.name}: nbformat not importable: checked its structure with json only")
    if problems:
        return problems
    for index, cell in enumerate(notebook["cells"]):
        if cell["cell_type"] == "code" and (cell["outputs"] or cell["execution_count"]):
            problems.append(f"cell {index}: stored outputs or execution count (clear them)")
        tags = cell["metadata"].get("tags", [])
        if not isinstance(tags, list) or set(tags) - TAGS:
            problems.append(f"cell {index}: tags {tags}: the only tag is 'gpu'")
    copies = list(writefile_cells(notebook)) if compare_copies else []
    for index, name, text in copies:
        shipped = ROOT / name
        if not shipped.is_file():
            problems.append(f"cell {index}: %%writefile {name}: no such file in the repository")
        elif shipped.read_text(encoding="utf-8") != text:
            problems.append(f"cell {index}: %%writefile {name} differs from the repository's "
                            "file: copy the file into the cell")
    print(f"{path.name}: {len(notebook['cells'])} cells, {len(copies)} exercise "
          f"cop{'y' if len(copies) == 1 else 'ies'} compared with the repository")
    return problems


def check(paths, compare_copies):
    failed = False
    for path in paths:
        for problem in problems_of(path, compare_copies):
            print(f"{path}: {problem}")
            failed = True
    return 1 if failed else 0


def copy_checkout(destination):
    """Copies the files of this checkout that git tracks or would track (no build trees)."""
    listed = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z", "--cached", "--others",
                             "--exclude-standard"], capture_output=True, text=True)
    if listed.returncode == 0:
        names = [name for name in listed.stdout.split("\0") if name]
    else:  # not a git checkout: every file but the build trees
        names = [str(p.relative_to(ROOT)) for p in ROOT.rglob("*") if p.is_file()
                 and not p.relative_to(ROOT).parts[0].startswith(("build", ".git"))]
    for name in names:
        source = ROOT / name
        if source.is_file():  # a file deleted but still tracked is left out
            target = destination / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    return len(names)


def run(paths, all_cells, save, compare_copies):
    missing = [m for m in ("nbformat", "nbclient", "ipykernel") if not importlib.util.find_spec(m)]
    if missing:
        print(f"{sys.executable} cannot import {', '.join(missing)}: the notebooks' cells were "
              f"not executed (python3 -m pip install nbformat nbclient ipykernel)")
        return 1 if os.environ.get("TUTORIAL_NOTEBOOK_REQUIRED") else 77
    import nbclient
    import nbformat
    failed = False
    for path in paths:
        notebook = nbformat.read(path, as_version=4)
        code_cells = [c for c in notebook.cells if c.cell_type == "code"]
        kept = [c for c in notebook.cells
                if all_cells or "gpu" not in c.metadata.get("tags", [])]
        notebook.cells = kept
        ran = sum(1 for c in kept if c.cell_type == "code")
        print(f"{path.name}: executing {ran} of its {len(code_cells)} code cells"
              + ("" if all_cells else f" (the {len(code_cells) - ran} tagged gpu left out)"),
              flush=True)
        with tempfile.TemporaryDirectory(prefix="notebook_test_") as tmp:
            checkout = pathlib.Path(tmp, "checkout")
            print(f"  against a copy of this checkout ({copy_checkout(checkout)} files) in "
                  f"{checkout}", flush=True)
            os.environ["TUTORIAL_CHECKOUT"] = str(checkout)
            client = nbclient.NotebookClient(notebook, timeout=3600, kernel_name="python3",
                                             resources={"metadata": {"path": tmp}})
            try:
                client.execute()
                error = None
            except nbclient.exceptions.CellExecutionError as raised:
                error = raised
            for index, cell in enumerate(notebook.cells):
                for output in cell.get("outputs", []) if cell.cell_type == "code" else []:
                    if output.get("output_type") == "stream":
                        print("  | " + output["text"].rstrip("\n").replace("\n", "\n  | "))
            if error is not None:
                plain = re.sub(r"\x1b\[[0-9;]*m", "", str(error))  # no terminal colours
                print(f"{path}: a cell failed:\n{plain}")
                failed = True
            elif compare_copies:
                for index, name, _ in writefile_cells(notebook):
                    if (checkout / name).read_bytes() != (ROOT / name).read_bytes():
                        print(f"{path}: cell {index} wrote {name} unlike the repository's file")
                        failed = True
            if save:
                pathlib.Path(save).mkdir(parents=True, exist_ok=True)
                nbformat.write(notebook, pathlib.Path(save, path.name))
                print(f"  executed notebook: {pathlib.Path(save, path.name)}")
        print(f"{path.name}: {'FAILED' if failed else 'every executed cell ran'}", flush=True)
    return 1 if failed else 0


def self_test():
    good = {"nbformat": 4, "nbformat_minor": 5,
            "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3",
                                        "language": "python"}},
            "cells": [{"cell_type": "markdown", "id": "a", "metadata": {}, "source": ["# A\n"]},
                      {"cell_type": "code", "id": "b", "metadata": {"tags": ["gpu"]},
                       "execution_count": None, "outputs": [],
                       "source": [WRITEFILE + "CMakePresets.json\n"] +
                       (ROOT / "CMakePresets.json").read_text().rstrip("\n")
                       .splitlines(keepends=True)}]}

    def broken(change):
        notebook = copy.deepcopy(good)
        change(notebook)
        return json.dumps(notebook)

    cases = {
        "the good notebook": (json.dumps(good), False),
        "not JSON": (json.dumps(good)[:-2], True),
        "a cell without its source": (broken(lambda n: n["cells"][0].pop("source")), True),
        "a stored output": (broken(lambda n: n["cells"][1]["outputs"].append(
            {"output_type": "stream", "name": "stdout", "text": "1\n"})), True),
        "an unknown tag": (broken(lambda n: n["cells"][1]["metadata"].update(
            tags=["cpu"])), True),
        "an exercise copy that drifted": (broken(lambda n: n["cells"][1]["source"].append(
            "\n// one more line")), True),
        "an exercise copy without its last line": (broken(lambda n: n["cells"][1]["source"]
                                                          .pop()), True),
    }
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name, (text, should_fail) in cases.items():
            path = pathlib.Path(tmp, "case.ipynb")
            path.write_text(text)
            problems = problems_of(path)
            if bool(problems) != should_fail:
                print(f"FAIL: {name}: {problems or 'no problem found'}")
                failures += 1
            else:
                print(f"ok: {name}: {problems[0] if problems else 'no problem'}")
    return 1 if failures else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=["check", "run", "self-test"])
    parser.add_argument("notebooks", nargs="*", type=pathlib.Path,
                        help="default: every notebooks/*.ipynb")
    parser.add_argument("--all", action="store_true", help="run the cells tagged gpu too")
    parser.add_argument("--save", help="run: write the executed notebooks to this folder")
    parser.add_argument("--exercise-state", action="store_true",
                        help="also require each %%%%writefile cell to equal the repository's file")
    args = parser.parse_args()
    if args.mode == "self-test":
        return self_test()
    paths = args.notebooks or sorted((ROOT / "notebooks").glob("*.ipynb"))
    if not paths:
        print("no notebook in notebooks/")
        return 1
    if args.mode == "check":
        return check(paths, args.exercise_state)
    return run(paths, args.all, args.save, args.exercise_state)


if __name__ == "__main__":
    sys.exit(main())
