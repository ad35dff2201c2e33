"""The /odds roll benchmark questions in icepool (`pip install icepool`),
for a side-by-side with `cargo bench --bench rules` ("exact odds of /roll
expressions"). Prints the mean time per question in microseconds and the
mean of each distribution (to check both tools answer the same question).

Run: python3 benches/odds_icepool.py
"""

import time

import icepool
from icepool import d, d4, d6, d10, d20


def q_4d6kh3():
    return d6.highest(4, 3)


def q_2d20kh1():
    return d20.highest(2, 1)


def q_3d6x():
    # Explode on 6, chains followed 20 deep (Kismet cuts at 1e-15 ≈ 6^-19).
    return 3 @ d6.explode(depth=20)


def q_5d10_succ():
    die = d10.map(lambda x: 1 if x >= 8 else (-1 if x == 1 else 0))
    return 5 @ die


def q_d20_plus5():
    return (d20 + 5 >= 15)


def q_10d6kh3():
    return d6.highest(10, 3)


def q_20d10_succ():
    return 20 @ (d10 >= 7)


def q_8d6dl2():
    return d6.highest(8, 6) + d4


QUESTIONS = [
    ("4d6kh3", q_4d6kh3),
    ("2d20kh1", q_2d20kh1),
    ("3d6!", q_3d6x),
    ("5d10>=8f1", q_5d10_succ),
    ("1d20+5>=15", q_d20_plus5),
    ("10d6kh3", q_10d6kh3),
    ("20d10>=7", q_20d10_succ),
    ("8d6dl2+1d4", q_8d6dl2),
]


def bench(f, budget=0.2):
    # icepool caches dice internally; clear its caches each call so every
    # call computes the answer, as Kismet does.
    n = 1
    while True:
        start = time.perf_counter()
        for _ in range(n):
            clear()
            r = f()
            r.mean()
        took = time.perf_counter() - start
        if took >= budget or n >= 1 << 12:
            return took / n, r
        n *= 2


def clear():
    for name in ("cache_clear",):
        for obj in (icepool.Die, icepool.Pool):
            fn = getattr(obj, name, None)
            if fn:
                fn()


if __name__ == "__main__":
    print(f"icepool {icepool.__version__}")
    for name, f in QUESTIONS:
        t, r = bench(f)
        print(f"odds roll {name:<45} {t * 1e6:>10.2f} µs   mean {float(r.mean()):.6f}")
