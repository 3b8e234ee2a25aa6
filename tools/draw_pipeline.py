#!/usr/bin/env python3
"""Draws chapter 10's ring of stages as steps 4 and 5 run it: the producer thread's TMA copies
arming each stage's "full" mbarrier, the consumer warpgroups waiting on it and handing the
stage back on its "empty" mbarrier, the producer waiting on that before it refills the stage.
One lane per barrier shows its phase bit flipping each time a phase completes, every wait with
the parity it asks for, and where a wait blocks.

    python3 tools/draw_pipeline.py --out docs/images/10_pipeline.svg
    python3 tools/draw_pipeline.py --check docs/images/10_pipeline.svg

The stage count, the number of consumer warps and the depth of a step are read from the
chapter's sources, and the lines of the kernel the drawing follows (each wait with its parity,
each arrival) must be there word for word: the script stops, naming the line, when one is not,
and --check fails when the checked-in picture is not what the script draws now. Durations are
schematic (a copy takes COPY_TICKS, a step's wgmma MMA_TICKS); the order of the events and the
parities are the kernel's. Standard library only. Exit 0, or 1 with a message.
"""
import pathlib
import sys
from xml.sax.saxutils import escape

import drawn_from_code  # beside this script: what the pictures drawn from code share
from drawn_from_code import constant

ROOT = pathlib.Path(__file__).resolve().parent.parent
CHAPTER = "chapters/10_tensor_cores"
STEPS = 12                  # steps of the tile drawn: three rounds of a 4-stage ring
COPY_TICKS, MMA_TICKS = 3, 2  # schematic durations, chosen for the drawing

# What the drawing follows, as it stands in the sources: {file: {what: line}}. The script
# stops, naming the line, when one is not there word for word.
KERNEL_LINES = {
    "warp_specialized_kernel.cuh": {
        "stage": "const int stage = here.stage();",
        "position": "const RingPosition here = ring.at(s);",
        "producer's wait": "mbarrier_wait(&empty[stage], (here.parity() + 1) % 2);",
        "consumers' wait": "mbarrier_wait(&full[stage], here.parity());",
        "one group in flight": "wgmma_wait<1>();",
        "release": "if (s >= 1) release_stage<kClusterBlocks>(&empty[(ring.use + s - 1) % kWgStages]);",
        "last release": "release_stage<kClusterBlocks>(&empty[(ring.use + steps - 1) % kWgStages]);",
        "full's arrivals": "mbarrier_init(&full[s], 1);",
        "empty's arrivals": "mbarrier_init(&empty[s], kConsumerWarps * kSharingBlocks);",
        "consumer warps":
            "constexpr int kConsumerWarps = kConsumerWarpgroups * kWarpgroupThreads / 32;",
    },
    "wgmma_kernel.cuh": {
        "ring stage": "int stage() const { return int(use % kWgStages); }",
        "ring parity": "uint32_t parity() const { return uint32_t(use / kWgStages) % 2; }",
        "consumer warpgroups": "constexpr int kConsumerWarpgroups = kWgBlockM / 64;",
        "expect_tx": "mbarrier_arrive_expect_bytes(full, kWgStageBytes);",
        "depth": "kWgDepth = kTmaBoxDepth",
    },
}
PRODUCER_WAIT = KERNEL_LINES["warp_specialized_kernel.cuh"]["producer's wait"]
CONSUMER_WAIT = KERNEL_LINES["warp_specialized_kernel.cuh"]["consumers' wait"]


# The same two rules in Python: the parity each side's wait asks for on the ring's use u.
def producer_parity(use, stages):
    return (use // stages + 1) % 2


def consumer_parity(use, stages):
    return (use // stages) % 2



def read_kernel(root):
    """The ring's facts from the chapter's sources; ValueError naming what is missing."""
    for name, lines in KERNEL_LINES.items():
        text = (root / CHAPTER / name).read_text()
        for what, line in lines.items():
            if line not in text:
                raise ValueError(f"{CHAPTER}/{name} no longer has the line the drawing follows "
                                 f"({what}):\n  {line}\n"
                                 "update tools/draw_pipeline.py to the kernel")
    kernel = (root / CHAPTER / "wgmma_kernel.cuh").read_text()
    tensor_map = (root / CHAPTER / "tensor_map.cuh").read_text()
    stages = constant(kernel, "kWgStages", "wgmma_kernel.cuh")
    warpgroups = constant(kernel, "kWgBlockM", "wgmma_kernel.cuh") // 64
    warps = warpgroups * constant(kernel, "kWarpgroupThreads", "wgmma_kernel.cuh") // 32
    depth = constant(tensor_map, "kTmaBoxDepth", "tensor_map.cuh")
    return {"stages": stages, "consumer_warpgroups": warpgroups, "consumer_warps": warps,
            "depth": depth}


class Barrier:
    """An mbarrier: the ticks at which its phases completed, in order."""

    def __init__(self):
        self.completed = []  # (tick, use that completed it)

    def phase(self, tick):
        """Phases completed up to and including @p tick: the current phase's number."""
        return sum(1 for t, _ in self.completed if t <= tick)

    def passes(self, parity, tick):
        # try_wait.parity: true once the phase with this parity has completed, that is while
        # the current phase's parity is the other one.
        return self.phase(tick) % 2 != parity


def simulate(stages, steps):
    """Ticks of one tile of @p steps steps through a ring of @p stages stages.

    Each tick: copies that land complete their full phase, then the consumers act (both
    warpgroups alike: their warps arrive together, so an empty phase completes at their
    arrival), then the producer. The producer fills one stage a tick once its empty wait
    passes. The consumers pass their full wait, issue the step's wgmma group (which runs for
    MMA_TICKS after the previous group), wait for the previous group (wgmma_wait<1>) and
    release its stage; after the last step, they wait for the last group and release it too."""
    full = [Barrier() for _ in range(stages)]
    empty = [Barrier() for _ in range(stages)]
    landing = {}  # tick -> [(stage, use)]
    events = {"loads": [], "waits": [], "groups": [], "releases": []}
    made, tried_p = 0, None            # the producer
    used, tried_c, issued = 0, None, False  # the consumers
    group_end = {}
    tick, done = 0, steps == 0
    while not done:
        for stage, use in landing.pop(tick, []):
            full[stage].completed.append((tick, use))
        if used < steps and not issued:
            stage, parity = used % stages, consumer_parity(used, stages)
            tried_c = tick if tried_c is None else tried_c
            if full[stage].passes(parity, tick):
                events["waits"].append(("full", stage, used, parity, tried_c, tick))
                start = max(tick, group_end.get(used - 1, tick))
                group_end[used] = start + MMA_TICKS
                events["groups"].append((used, stage, start, start + MMA_TICKS))
                issued, tried_c = True, None
        if issued and group_end.get(used - 1, tick) <= tick:  # wgmma_wait<1>()
            if used >= 1:
                release(empty, events, used - 1, stages, tick)
            used, issued = used + 1, False
        elif used == steps and group_end[steps - 1] <= tick:  # wgmma_wait<0>(), the last release
            release(empty, events, steps - 1, stages, tick)
            done = True
        if made < steps:
            stage, parity = made % stages, producer_parity(made, stages)
            tried_p = tick if tried_p is None else tried_p
            if empty[stage].passes(parity, tick):
                events["waits"].append(("empty", stage, made, parity, tried_p, tick))
                events["loads"].append((made, stage, tick, tick + COPY_TICKS))
                landing.setdefault(tick + COPY_TICKS, []).append((stage, made))
                made, tried_p = made + 1, None
        tick += 1
        if tick > 10 * (steps + stages) * (COPY_TICKS + MMA_TICKS):
            raise RuntimeError("the ring never drains: a wait that never passes")
    return full, empty, events, tick


def release(empty, events, use, stages, tick):
    empty[use % stages].completed.append((tick, use))
    events["releases"].append((use, tick))


# Drawing.
TICK = 28
LEFT = 150
LANE = 34
TOP = 58
COLORS = ["#2f6db5", "#e8762d", "#4caf50", "#8e44ad", "#d23f31", "#17a2b8", "#b8860b", "#555555"]
BIT_FILL = ["#ffffff", "#dde5ef"]
BLOCKED = "#d23f31"


def text(x, y, content, size=11, anchor="start", weight="normal", color="#222",
         family="sans-serif"):
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-family="{family}" font-size="{size}" '
            f'text-anchor="{anchor}" font-weight="{weight}" fill="{color}">'
            f'{escape(content)}</text>')


def rect(x, y, w, h, fill, cls, stroke="none", extra=""):
    return (f'<rect class="{cls}" x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" '
            f'fill="{fill}" stroke="{stroke}"{extra}/>')


def x_of(tick):
    return LEFT + tick * TICK


def barrier_lane(y, name, barrier, ticks, waits, stage):
    """One barrier: its phase bit over time, the flips, and the waits on it."""
    parts = [text(LEFT - 8, y + LANE / 2 + 4, name, 11, "end", family="monospace",
                  color=COLORS[stage % len(COLORS)])]
    flips = [t for t, _ in barrier.completed]
    edges = [0] + flips + [ticks]
    for i in range(len(edges) - 1):
        x0, x1 = x_of(edges[i]), x_of(edges[i + 1])
        parts.append(rect(x0, y + 2, x1 - x0, LANE - 4, BIT_FILL[i % 2], "phase-bit",
                          "#b0b0b0", ' stroke-width="0.5"'))
        if x1 - x0 >= TICK:
            parts.append(text(x0 + 3, y + 11, f"bit {i % 2}", 8, color="#666"))
    for t, use in barrier.completed:
        parts.append(f'<line class="flip" x1="{x_of(t):.1f}" y1="{y}" x2="{x_of(t):.1f}" '
                     f'y2="{y + LANE}" stroke="#222" stroke-width="2"/>')
    for _, _, use, parity, tried, passed in waits:
        if passed > tried:
            parts.append(rect(x_of(tried), y + LANE - 10, (passed - tried) * TICK, 6, BLOCKED,
                              "wait-blocked"))
        else:
            parts.append(f'<path class="wait-passed" d="M {x_of(passed):.1f} {y + LANE - 4} l 4 -7 '
                         f'l 4 7 z" fill="#4caf50"/>')
        parts.append(text(x_of(passed) + 9, y + LANE - 4, f"p{parity}", 9, weight="bold"))
    return parts


def draw(facts):
    stages, warps = facts["stages"], facts["consumer_warps"]
    full, empty, events, ticks = simulate(stages, STEPS)
    width = x_of(ticks) + 20
    rows = 2 + 2 * stages
    legend_y = TOP + rows * LANE + 24
    height = legend_y + 8 * 16
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}">',
             rect(0, 0, width, height, "#ffffff", "background"),
             text(8, 20, f"Chapter 10, steps 4 and 5: the ring of {stages} stages, one tile of "
                         f"{STEPS} steps (K = {STEPS * facts['depth']})", 13, weight="bold"),
             text(8, 40, "time → (schematic)", 10, color="#666")]
    for t in range(ticks + 1):
        parts.append(f'<line x1="{x_of(t)}" y1="{TOP - 4}" x2="{x_of(t)}" y2="{TOP + rows * LANE}" '
                     f'stroke="#eeeeee" stroke-width="1"/>')

    y = TOP  # the producer: one box per stage it fills, red while it waits
    parts.append(text(LEFT - 8, y + LANE / 2 + 4, "producer thread", 11, "end"))
    for kind, stage, use, parity, tried, passed in events["waits"]:
        if kind == "empty" and passed > tried:
            parts.append(rect(x_of(tried), y + 8, (passed - tried) * TICK, LANE - 16, BLOCKED,
                              "blocked", extra=' opacity="0.35"'))
    for use, stage, issued, landed in events["loads"]:
        parts.append(rect(x_of(issued), y + 4, TICK, LANE - 8, COLORS[stage % len(COLORS)], "load"))
        parts.append(text(x_of(issued) + TICK / 2, y + LANE / 2 + 4, str(use), 10, "middle",
                          "bold", "#fff"))
    y += LANE
    for s in range(stages):
        waits = [w for w in events["waits"] if w[0] == "full" and w[1] == s]
        parts += barrier_lane(y, f"full[{s}]", full[s], ticks, waits, s)
        for use, stage, issued, landed in events["loads"]:
            if stage == s:  # armed by arrive.expect_tx: the bytes are on their way
                parts.append(rect(x_of(issued), y + 14, (landed - issued) * TICK, 5,
                                  COLORS[s % len(COLORS)], "bytes", extra=' opacity="0.6"'))
        y += LANE
    parts.append(text(LEFT - 8, y + LANE / 2 + 4, "consumer warpgroups", 11, "end"))
    for kind, stage, use, parity, tried, passed in events["waits"]:
        if kind == "full" and passed > tried:
            parts.append(rect(x_of(tried), y + 8, (passed - tried) * TICK, LANE - 16, BLOCKED,
                              "blocked", extra=' opacity="0.35"'))
    for use, stage, start, end in events["groups"]:
        parts.append(rect(x_of(start) + 1, y + 4, (end - start) * TICK - 2, LANE - 8,
                          COLORS[stage % len(COLORS)], "wgmma"))
        parts.append(text((x_of(start) + x_of(end)) / 2, y + LANE / 2 + 4, str(use), 10,
                          "middle", "bold", "#fff"))
    y += LANE
    for s in range(stages):
        waits = [w for w in events["waits"] if w[0] == "empty" and w[1] == s]
        parts += barrier_lane(y, f"empty[{s}]", empty[s], ticks, waits, s)
        y += LANE

    source = f"{CHAPTER}/warp_specialized_kernel.cuh"
    lines = [
        ("Use u of the ring goes to stage u % kWgStages, kWgStages = "
         f"{stages} ({CHAPTER}/wgmma_kernel.cuh); round r = u / kWgStages.", "sans-serif"),
        (f"producer, before filling a stage ({source}):", "sans-serif"),
        (PRODUCER_WAIT, "monospace"),
        ("consumers, before multiplying it; then, once the previous step's wgmma are done, "
         f"one arrival per warp ({warps} warps) on its empty barrier:", "sans-serif"),
        (CONSUMER_WAIT, "monospace"),
        ("Boxes: the producer's load_stage (expect_tx, two TMA copies), the consumers' wgmma "
         "group; numbered by use, coloured by stage. Thin bar: bytes in flight.", "sans-serif"),
        ("Barrier lanes: the phase bit (shaded 1), a black line where a phase completes; pN: a "
         "wait for parity N, green if it returns at once, red while it blocks.", "sans-serif"),
        (f"Schematic times: a copy takes {COPY_TICKS} ticks, a step's wgmma {MMA_TICKS} (chosen "
         "for the drawing, not measured); the order of events and the parities are the kernel's.",
         "sans-serif"),
    ]
    for i, (line, family) in enumerate(lines):
        mono = family == "monospace"
        parts.append(text(32 if mono else 8, legend_y + 16 * i, line, 10 if mono else 11,
                          family=family))
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def main():
    return drawn_from_code.main("draw_pipeline", __doc__.splitlines()[0], ROOT,
                                lambda root: draw(read_kernel(root)), (OSError, ValueError, RuntimeError))


if __name__ == "__main__":
    sys.exit(main())
