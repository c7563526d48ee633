"""Lemma 4: no switch holds exactly 4 PCs.

The 60 PCs off the switch x0 each have one switch in each of the four
disjoint full 5-sets A_i and two switches r1, r2 in the rest R, with
exc = d_r1 + d_r2 - 17 <= 9 among themselves. Variables: n_d (R switches of
degree d, 4..13) and m_(d1,d2) (PCs on R switches of degrees d1 <= d2).
The second moment Q' of the 60 PCs, 2 Q' <= sum m qmax(d1 + d2 - 17), is at
least convmin(360, 150) over the A-A pairs plus convmin(4 d_r, 20) for each
R switch; the LP has no solution (exact certificate)."""
from math import comb
import numpy as np
from common import convmin, parts, certify


def allowed(t):
    """Profiles left by Lemma 3: one twin at most, no twin with a 5-neighbour,
    two 4-parts only as (4, 4, 1)."""
    if t.count(5) > 1 or (5 in t and 4 in t):
        return False
    return t.count(4) < 2 or t == (4, 4, 1)


qmax = [max(sum(comb(p + 1, 2) for p in t) for t in parts(e, 5) if allowed(t)) for e in range(10)]
degs = list(range(4, 14))
pairs = [(a, b) for a in degs for b in degs if a <= b and 17 <= a + b <= 26]
D = len(degs)
nv = D + len(pairs)
rows, lo, hi = [], [], []


def add(c, l, h):
    rows.append(c), lo.append(l), hi.append(h)


c = np.zeros(nv); c[:D] = degs; add(c, 120, 120)
c = np.zeros(nv); c[D:] = 1; add(c, 60, 60)
for i, d in enumerate(degs):
    c = np.zeros(nv); c[i] = -d
    for j, (a, b) in enumerate(pairs):
        c[D + j] = (a == d) + (b == d)
    add(c, 0, 0)
c = np.zeros(nv)
for j, (a, b) in enumerate(pairs):
    c[D + j] = qmax[a + b - 17] / 2
for i, d in enumerate(degs):
    c[i] = -convmin(4 * d, 20)
add(c, convmin(360, 150), np.inf)
assert certify(np.array(rows), lo, hi)
print("qmax", qmax)
print("a switch with 4 PCs: refuted by an exact certificate")
