#!/usr/bin/env python3
"""Measures the spine (issue 12): import circles between files of src/: edges from `use crate::a::b`,
`use super::x`, `crate::a::b::` paths in code; prints strongly connected
components with more than one file."""
import os, re, sys
root = sys.argv[1] if len(sys.argv) > 1 else 'src'
files = {}
for d, _, fs in os.walk(root):
    for f in fs:
        if f.endswith('.rs'):
            p = os.path.join(d, f)
            rel = os.path.relpath(p, root)[:-3]
            parts = rel.split('/')
            if parts[-1] == 'mod': parts = parts[:-1]
            if parts == ['lib'] or parts == ['main']: parts = []
            files[tuple(parts)] = p
def resolve(path):
    # longest prefix that is a file module
    for n in range(len(path), 0, -1):
        if tuple(path[:n]) in files: return tuple(path[:n])
    return None
edges = {m: set() for m in files}
for m, p in files.items():
    src = open(p).read()
    src = re.sub(r'#\[cfg\(test\)\]\s*mod tests\s*\{.*', '', src, flags=re.S)
    src = re.sub(r'//[^\n]*', '', src)
    is_mod = p.endswith('mod.rs') or p.endswith('lib.rs')
    base = list(m) if is_mod else list(m[:-1])
    for mm in re.finditer(r'\b(crate|super)((?:::\w+)+)', src):
        head, rest = mm.group(1), mm.group(2).split('::')[1:]
        if head == 'crate': path = rest
        else:
            b = base[:]; r = rest
            # super from file a/b/c.rs -> a/b; from a/b/mod.rs -> a
            b = base[:-1] if is_mod else base
            b = list(b)
            while r and r[0] == 'super': b = b[:-1]; r = r[1:]
            path = b + r
        t = resolve(path)
        if t is not None and t != m and t != tuple(path[:0]): edges[m].add(t)
    # braces: use crate::a::{b, c}
    for mm in re.finditer(r'use (crate|super)((?:::\w+)*)::\{([^;]*)\};', src, flags=re.S):
        head = mm.group(1); pre = mm.group(2).split('::')[1:]
        b = (base[:-1] if is_mod else base) if head == 'super' else []
        for item in re.split(r',', mm.group(3)):
            item = item.strip().split(' as ')[0].split('::')
            item = [x for x in item if re.match(r'^\w+$', x)]
            if not item or item == ['self']: t = resolve(list(b) + pre)
            else: t = resolve(list(b) + pre + item)
            if t is not None and t != m: edges[m].add(t)
# drop edges to ancestors that are mere parents (mod.rs files re-exporting)? keep all
sys.setrecursionlimit(10000)
idx = {}; low = {}; st = []; on = set(); sccs = []; c = [0]
def sc(v):
    idx[v] = low[v] = c[0]; c[0] += 1; st.append(v); on.add(v)
    for w in edges[v]:
        if w not in idx: sc(w); low[v] = min(low[v], low[w])
        elif w in on: low[v] = min(low[v], idx[w])
    if low[v] == idx[v]:
        comp = []
        while True:
            w = st.pop(); on.discard(w); comp.append(w)
            if w == v: break
        sccs.append(comp)
for v in edges:
    if v not in idx: sc(v)
big = [s for s in sccs if len(s) > 1]
print(len(big), 'import circles')
for s in sorted(big, key=len, reverse=True):
    print(len(s), sorted('/'.join(x) or 'lib' for x in s))
