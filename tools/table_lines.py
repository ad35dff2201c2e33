#!/usr/bin/env python3
"""Measures issue 28's line figure: non-test code lines of each game's table
glue (src/systems/<game>/) against its pure rules core (src/rules/<game>/).

A line counts when it is not blank and not a comment (`//`, `///`, `//!`);
files named tests.rs and every item under `#[cfg(test)]` are left out.
Run from the repository root: `python3 tools/table_lines.py`."""
import os
import sys

GAMES = ["venus", "veracity", "storyteller", "ore"]


def code_lines(path):
    """The lines of `path` that count, stripped: not blank, not a comment,
    not inside a `#[cfg(test)]` item."""
    lines = open(path, encoding="utf-8").read().split("\n")
    out, i = [], 0
    while i < len(lines):
        line = lines[i].strip()
        if line.startswith("#[cfg(test)]"):
            # Skip the item that follows: up to its closing brace.
            j, depth, started = i + 1, 0, False
            while j < len(lines):
                depth += lines[j].count("{") - lines[j].count("}")
                started = started or "{" in lines[j]
                j += 1
                if started and depth <= 0:
                    break
            i = j
            continue
        if line and not line.startswith("//"):
            out.append(line)
        i += 1
    return out


def count_file(path):
    return len(code_lines(path))


def count(folder):
    total = 0
    for root, _, files in os.walk(folder):
        for f in files:
            if f.endswith(".rs") and f != "tests.rs":
                total += count_file(os.path.join(root, f))
    return total


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    rows = [(g, count(f"{root}/src/systems/{g}"), count(f"{root}/src/rules/{g}")) for g in GAMES]
    print(f"{'game':<12} {'systems':>8} {'rules':>8}")
    for g, s, r in rows:
        print(f"{g:<12} {s:>8} {r:>8}")
    s, r = sum(x[1] for x in rows), sum(x[2] for x in rows)
    print(f"{'total':<12} {s:>8} {r:>8}   ratio {s / r:.2f}")


if __name__ == "__main__":
    main()
