#!/usr/bin/env python3
"""Breaks issue 28's line figure down: the non-test code lines that
`tools/table_lines.py` counts in each game's table glue
(src/systems/<game>/), by the role of their file and by the kind of line,
beside the same kinds in its rules core (src/rules/<game>/).

Roles (by file name): commands (the slash-command declarations:
commands*, complete.rs), views (what is drawn: *view*, render, format,
text, menus, faces, help), odds (the odds questions), records (stored
state, log records, governed changes, history lines), wiring (mod,
context, button registries) and actions (the rest: each action's steps).
Kinds: `use` lines, attribute lines (`#[…]`, command option
declarations among them), lines that are only a string literal, and
other code. Run from the repository root:
`python3 tools/table_breakdown.py`."""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from table_lines import GAMES, code_lines  # noqa: E402

ROLES = [
    ("commands", re.compile(r"(^|/)(commands[^/]*|complete)(/|\.rs$)")),
    ("views", re.compile(r"(view|render|format|text|menus?|faces|help)[^/]*\.rs$")),
    ("odds", re.compile(r"odds[^/]*\.rs$")),
    ("records", re.compile(r"(record|state|history|governed|changes)\.rs$")),
    ("wiring", re.compile(r"(^|/)(mod|context|[a-z_]*buttons)\.rs$")),
]
KINDS = ["use", "attribute", "string", "other"]


def role_of(rel):
    for name, pattern in ROLES:
        if pattern.search(rel):
            return name
    return "actions"


def kinds(lines):
    """Counts of each kind of line; a `use` or an attribute spans until it
    closes."""
    n = dict.fromkeys(KINDS, 0)
    open_kind = None
    for line in lines:
        if open_kind:
            n[open_kind] += 1
            if (open_kind == "use" and line.endswith(";")) or (
                open_kind == "attribute" and line.endswith("]")
            ):
                open_kind = None
            continue
        if re.match(r"(pub(\([a-z]+\))? )?use ", line):
            n["use"] += 1
            open_kind = None if line.endswith(";") else "use"
        elif line.startswith("#["):
            n["attribute"] += 1
            open_kind = None if line.endswith("]") else "attribute"
        elif re.fullmatch(r'r?#*"[^"]*"#*,?\)?;?', line):
            n["string"] += 1
        else:
            n["other"] += 1
    return n


def walk(folder):
    for root, _, files in os.walk(folder):
        for f in sorted(files):
            if f.endswith(".rs") and f != "tests.rs":
                path = os.path.join(root, f)
                yield os.path.relpath(path, folder), code_lines(path)


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    roles = [r for r, _ in ROLES] + ["actions"]
    print("Table glue by role of file (non-test code lines):")
    print(f"{'game':<12}" + "".join(f"{r:>10}" for r in roles) + f"{'total':>10}")
    glue_kinds, rule_kinds = dict.fromkeys(KINDS, 0), dict.fromkeys(KINDS, 0)
    totals = dict.fromkeys(roles, 0)
    for g in GAMES:
        by_role = dict.fromkeys(roles, 0)
        for rel, lines in walk(f"{root}/src/systems/{g}"):
            by_role[role_of(rel)] += len(lines)
            for k, v in kinds(lines).items():
                glue_kinds[k] += v
        for _, lines in walk(f"{root}/src/rules/{g}"):
            for k, v in kinds(lines).items():
                rule_kinds[k] += v
        for r in roles:
            totals[r] += by_role[r]
        print(f"{g:<12}" + "".join(f"{by_role[r]:>10}" for r in roles) + f"{sum(by_role.values()):>10}")
    print(f"{'total':<12}" + "".join(f"{totals[r]:>10}" for r in roles) + f"{sum(totals.values()):>10}")
    print("\nBy kind of line, glue against rules (all four games):")
    print(f"{'kind':<12}{'glue':>10}{'rules':>10}{'excess':>10}")
    for k in KINDS:
        print(f"{k:<12}{glue_kinds[k]:>10}{rule_kinds[k]:>10}{glue_kinds[k] - rule_kinds[k]:>+10}")
    g, r = sum(glue_kinds.values()), sum(rule_kinds.values())
    print(f"{'total':<12}{g:>10}{r:>10}{g - r:>+10}")


if __name__ == "__main__":
    main()
