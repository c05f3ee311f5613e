#!/usr/bin/env python3
"""Flame graphs from `perf script` output, with nothing but Python's standard library.

    perf script -i perf.data | Benchmarks/flamegraph.py --title TITLE --out NAME

writes NAME.svg (the flame graph: a frame's width is its share of the samples, its
callers below it; hover a frame for its name, samples and share), and prints the ten
frames with the most samples of their own ("own") and the program's frames with the most
samples under them ("all"); with --layers, each of the coordinator's layers' share
("layer": the kernel by the call it was in, the program by the first layer that names a
frame of the sample, from the leaf down). With --folded, also NAME.folded: one line per
distinct stack, root first, frames joined by ';', then its sample count (the "folded"
form other flame graph tools read).

Swift symbols are demangled (simplified) when `swift demangle` is at hand.
"""
import argparse
import collections
import html
import re
import shutil
import subprocess
import sys


def read_stacks(lines, skip=frozenset()):
    """Yields each sample's stack as a list of (symbol, binary), leaf first; the samples of
    the commands in `skip` are left out."""
    stack = []
    in_sample = False
    for raw in lines:
        line = raw.rstrip("\n")
        if not line.strip():
            if stack:
                yield stack
            stack, in_sample = [], False
            continue
        if not line[0].isspace():
            # A sample's header: "comm pid [cpu] time: period event:".
            if stack:
                yield stack
            stack, in_sample = [], line.split(None, 1)[0] not in skip
            continue
        if not in_sample:
            continue
        # "\t    7f1c2d3e4f50 symbol+0x1c (/path/to/binary)"
        match = re.match(r"\s*[0-9a-fA-F]+\s+(.*?)\s+\((.*)\)\s*$", line)
        if not match:
            continue
        symbol, binary = match.group(1), match.group(2)
        symbol = re.sub(r"\+0x[0-9a-fA-F]+$", "", symbol)
        binary = binary.rsplit("/", 1)[-1]
        stack.append((symbol, binary))
    if stack:
        yield stack


def demangler(symbols):
    """A map from each mangled Swift symbol to its simplified demangling."""
    mangled = sorted({s for s in symbols if s.startswith(("$s", "_$s"))})
    tool = shutil.which("swift")
    if not mangled or not tool:
        return {}
    try:
        out = subprocess.run([tool, "demangle", "--simplified", "--compact"], input="\n".join(mangled),
                             capture_output=True, text=True, timeout=120).stdout.split("\n")
    except (OSError, subprocess.SubprocessError):
        return {}
    if len(out) < len(mangled):
        return {}
    return dict(zip(mangled, out))


def fold(stacks):
    """Counts each distinct stack, root first, as a tuple of frame names."""
    stacks = list(stacks)
    names = demangler(symbol for stack in stacks for symbol, _ in stack)
    counts = collections.Counter()
    for stack in stacks:
        frames = []
        for symbol, binary in reversed(stack):
            name = names.get(symbol, symbol)
            if name == "[unknown]":
                # A frame perf could not name (async frames, stripped code): its binary,
                # once for a run of them.
                name = "[unknown]" if binary == "[unknown]" else f"[{binary}]"
                if frames and frames[-1] == name:
                    continue
            frames.append(f"{name} [kernel]" if binary.startswith("[kernel") else name)
        counts[tuple(frames)] += 1
    return counts


# The coordinator's layers, for --layers: a sample counts for the first layer that names
# one of its frames, from the leaf down (a retain under the params' parser is the params').
LAYERS = [
    ("flow store", ("FlowStore.",)),
    ("event: history, fan-out, emission", ("EventHistory", "EventFanout", "SequencedEvent", "WireRoutes.json",
                                           ".emit", "publish")),
    ("answer written", ("framedResponse", "WireCodec.write", "Writable", "InstanceInfoResult")),
    ("params read", ("plain(bytes", "JSONParser", "Params.", "FlowIntent<>.init", "decode")),
    ("envelope scan", ("Envelope.scan",)),
    ("journal and state file", ("Journal", "GroupCommit", "StateFile", "StateWriter")),
    ("registry and instances", ("withInstance", "Served", "SceneInstance", "Instance.", "InstanceID", "SceneRegistry",
                                "RegistryStep", "FocusList")),
    ("session, loop, socket", ("Session", "EventLoop", "SocketConnection", "LoopBound", "Relay")),
]

KERNEL_CALLS = [
    ("kernel: writes (with the peer's wake-up)", ("__send", "writev", "__libc_write", "sendmsg")),
    ("kernel: reads", ("recv", "__libc_read")),
    ("kernel: epoll_wait", ("epoll",)),
    ("kernel: the disk's sync", ("fdatasync", "fsync")),
]


def layers(counts):
    """Each layer's share of the samples: [(name, count)], most first."""
    shares = collections.Counter()
    for frames, count in counts.items():
        if frames[-1].endswith("[kernel]"):
            user = [f for f in frames if not f.endswith("[kernel]")]
            name = next((layer for layer, calls in KERNEL_CALLS if any(c in f for f in user for c in calls)),
                        "kernel: other")
        else:
            name = next((layer for f in reversed(frames) for layer, keys in LAYERS if any(k in f for k in keys)),
                        "outside the layers (runtime, allocator, thread entry)")
        shares[name] += count
    return shares.most_common()


class Node:
    __slots__ = ("name", "count", "children")

    def __init__(self, name):
        self.name = name
        self.count = 0
        self.children = {}


def tree(counts):
    root = Node("all")
    for frames, count in counts.items():
        node = root
        node.count += count
        for frame in frames:
            node = node.children.setdefault(frame, Node(frame))
            node.count += count
    return root


def colour(name):
    """Kernel frames orange, the Swift runtime and libc yellow, the program red."""
    seed = sum(ord(c) for c in name) % 40
    if "[kernel" in name:
        return f"rgb({220 + seed // 4},{120 + seed},40)"
    if name.startswith(("swift", "_swift", "__", "malloc", "free", "_int_", "pthread", "[lib")):
        return f"rgb({210 + seed // 2},{190 + seed // 2},60)"
    return f"rgb({215 + seed},{80 + seed},{60 + seed // 2})"


def svg(root, title, width=1200, row=16, minimum=0.001):
    rects = []
    depth_max = 0

    def place(node, x, depth):
        nonlocal depth_max
        depth_max = max(depth_max, depth)
        rects.append((node, x, depth))
        child_x = x
        for child in sorted(node.children.values(), key=lambda n: n.name):
            if child.count / root.count >= minimum:
                place(child, child_x, depth + 1)
            child_x += child.count

    place(root, 0, 0)
    scale = (width - 20) / max(root.count, 1)
    height = (depth_max + 1) * row + 60
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="monospace" font-size="11">',
        f'<rect width="{width}" height="{height}" fill="#fdfdf6"/>',
        f'<text x="{width / 2}" y="20" text-anchor="middle" font-size="15">{html.escape(title)}</text>',
        f'<text x="10" y="40" fill="#555">{root.count} samples; a frame\'s width is its share, '
        f'its callers below it; hover for names</text>',
    ]
    for node, x, depth in rects:
        w = node.count * scale
        y = height - (depth + 1) * row - 4
        share = 100.0 * node.count / root.count
        label = html.escape(node.name)
        out.append(f'<g><title>{label} ({node.count} samples, {share:.2f}%)</title>'
                   f'<rect x="{10 + x * scale:.1f}" y="{y}" width="{max(w - 0.5, 0.1):.1f}" height="{row - 1}" '
                   f'fill="{colour(node.name)}" rx="2"/>')
        fits = int(w / 6.6)
        if fits >= 3:
            text = node.name if len(node.name) <= fits else node.name[: fits - 2] + ".."
            out.append(f'<text x="{12 + x * scale:.1f}" y="{y + row - 4}">{html.escape(text)}</text>')
        out.append("</g>")
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--title", default="flame graph")
    parser.add_argument("--out", required=True, help="NAME: writes NAME.svg")
    parser.add_argument("--folded", action="store_true", help="also write NAME.folded")
    parser.add_argument("--skip-comm", default="",
                        help="leave out the samples of these commands (comma-separated), e.g. a load generator")
    parser.add_argument("--inclusive", type=int, default=15,
                        help="also print the N program frames with the most samples under them")
    parser.add_argument("--layers", action="store_true",
                        help="also print each of the coordinator's layers' share of the samples")
    parser.add_argument("input", nargs="?", help="perf script output (default: standard input)")
    args = parser.parse_args()
    source = open(args.input, encoding="utf-8", errors="replace") if args.input else sys.stdin
    counts = fold(read_stacks(source, frozenset(filter(None, args.skip_comm.split(",")))))
    if not counts:
        sys.exit("flamegraph.py: no samples with stacks in the input")
    if args.folded:
        with open(args.out + ".folded", "w", encoding="utf-8") as folded:
            for frames, count in sorted(counts.items()):
                folded.write(";".join(f.replace(";", ",") for f in frames) + f" {count}\n")
    root = tree(counts)
    with open(args.out + ".svg", "w", encoding="utf-8") as image:
        image.write(svg(root, args.title))
    own = collections.Counter()
    inclusive = collections.Counter()
    for frames, count in counts.items():
        own[frames[-1]] += count
        for name in set(frames):
            inclusive[name] += count
    total = sum(counts.values())
    for name, count in own.most_common(10):
        print(f"own {100.0 * count / total:6.2f}%  {name}")
    # The program's own frames with the most samples under them (the threads' and the
    # runtime's entry points, which hold nearly everything, left out).
    shown = 0
    for name, count in inclusive.most_common():
        if shown == args.inclusive:
            break
        if count == total or name.startswith(("[", "start_thread", "_dispatch", "swift_job_run", "swift::", "__libc")) \
                or name.endswith("[kernel]"):
            continue
        print(f"all {100.0 * count / total:6.2f}%  {name}")
        shown += 1
    if args.layers:
        for name, count in layers(counts):
            print(f"layer {100.0 * count / total:6.2f}%  {name}")


if __name__ == "__main__":
    main()
