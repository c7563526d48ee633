"""A check of the model, not part of the proof: on families that exist
(33 PCs of 6 switches, pairwise sharing one, F and G sharing exactly four,
drawn at random on 11 to 13 switches, with w their widest switch or more),
every identity and row that Lemmas 3 and 4 use at 7 ports, taken at w,
holds. Lemma 1's bounds (degree >= 3, sharing <= 4) are not used here."""
import random
from collections import Counter
import case_lp as C


def design(nsw, rng):
    """F, G and 31 random 6-sets of nsw switches, each meeting all before it."""
    pcs = [list(C.F_), list(C.G_)]
    for _ in range(100000):
        if len(pcs) == C.P:
            return pcs
        new = rng.sample(range(nsw), C.K)
        if all(set(new) & set(p) for p in pcs):
            pcs.append(new)
    return None


def check(pcs, w):
    T = set(range(8))
    traces = [tuple(sorted(set(p) & T)) for p in pcs[2:]]
    if any(not tr for tr in traces) or len(set(pcs[0]) & set(pcs[1])) != 4:
        return "skip"
    deg = [sum(1 for p in pcs if x in p) for x in range(8)]
    assert C.t_level(traces, deg, w), "t_level identity"
    r_f = sum(C.meet(t, C.F_) - 1 for t in traces)
    assert sum(w - deg[x] for x in C.F_) + r_f == C.exc_total(w) - 3
    cls, N, rows = C.rows_of(traces, w, max_r=10**6)
    rsw = sorted({x for p in pcs for x in p} - T)
    types = Counter(tuple(sum(1 for p, tr in zip(pcs[2:], traces) if tr == c and x in p) for c in cls) for x in rsw)
    for f, sense, rhs, name in rows:
        v = sum(n * f(t) for t, n in types.items())
        assert (v == rhs) if sense == "==" else (v <= rhs), (name, v, sense, rhs)
    return "ok"


rng = random.Random(1)
done = Counter()
for trial in range(60):
    pcs = design(rng.choice([11, 12, 13]), rng)
    if pcs:
        w = max(Counter(x for p in pcs for x in p).values()) + rng.choice([0, 0, 1, 3])
        done[check(pcs, w)] += 1
print(dict(done))
assert done["ok"] >= 10
print("every row holds on the designs built")
