#!/usr/bin/env python3
"""Measures the spine (issue 12): longest functions under a folder (lines from `fn` to its closing brace,
matched by brace depth; strings and comments roughly skipped)."""
import os, re, sys
root = sys.argv[1] if len(sys.argv) > 1 else 'src'
top = int(sys.argv[2]) if len(sys.argv) > 2 else 10
res = []
for d, _, fs in os.walk(root):
    for f in fs:
        if not f.endswith('.rs'): continue
        p = os.path.join(d, f)
        lines = open(p).read().split('\n')
        for i, l in enumerate(lines):
            m = re.match(r'^\s*(pub(\([^)]*\))?\s+)?(async\s+)?(const\s+)?fn\s+(\w+)', l)
            if not m: continue
            depth = 0; started = False; j = i
            while j < len(lines):
                t = re.sub(r'"(\\.|[^"\\])*"', '""', lines[j]); t = re.sub(r"'(\\.|[^'\\])'", "''", t)
                t = t.split('//')[0]
                for ch in t:
                    if ch == '{': depth += 1; started = True
                    elif ch == '}': depth -= 1
                if started and depth <= 0: break
                if not started and t.rstrip().endswith(';'): break
                j += 1
            if started: res.append((j - i + 1, p, i + 1, m.group(5)))
res.sort(reverse=True)
for n, p, line, name in res[:top]: print(f'{n:5} {p}:{line} {name}')
