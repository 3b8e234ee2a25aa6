"""What the pictures drawn from the code share (tools/draw_pipeline.py, tools/draw_swizzle.py):
reading a constant from a source file, and the command line that writes the SVG (--out) or
checks that the checked-in one is what the script draws now (--check), so that a picture cannot
drift from the code it shows."""
import argparse
import pathlib
import re
import sys


def constant(text, name, path):
    """The number in `name = <number>` in @p text (the source at @p path, for the message)."""
    match = re.search(r"\b" + name + r" = (\d+)\b", text)
    if not match:
        raise ValueError(f"{path}: no '{name} = <number>'")
    return int(match[1])


def main(tool, description, root, draw_from_root, errors=(OSError, ValueError)):
    """The command line of @p tool: draws draw_from_root(root) and writes or checks it.
    Returns the exit code: 0, or 1 when drawing fails or --check finds another picture."""
    parser = argparse.ArgumentParser(description=description)
    what = parser.add_mutually_exclusive_group(required=True)
    what.add_argument("--out", type=pathlib.Path, help="the SVG to write")
    what.add_argument("--check", type=pathlib.Path,
                      help="exit 1 unless this SVG is what the script draws now")
    parser.add_argument("--root", type=pathlib.Path, default=root,
                        help="the repository's root (default: this tool's)")
    args = parser.parse_args()
    try:
        svg = draw_from_root(args.root)
    except errors as e:
        print(f"{tool}: {e}", file=sys.stderr)
        return 1
    if args.check:
        if not args.check.is_file() or args.check.read_text() != svg:
            print(f"{tool}: {args.check} is not what the script draws from the code now: "
                  f"run `python3 tools/{tool}.py --out {args.check}`", file=sys.stderr)
            return 1
        print(f"{tool}: {args.check} matches the code")
        return 0
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(svg)
    print(f"{tool}: wrote {args.out}")
    return 0
