"""Lemma 2: the counting LP below has no solution for 32 to 66 switches, and
none for 29 to 31 switches when no two PCs share exactly 4 switches. HiGHS
(scipy) finds Farkas multipliers; they are rounded to fractions and the
contradiction is checked in exact arithmetic.

Variables (all >= 0 and <= 1000): n_d switches of degree d (3..7, Lemma 1);
y_t PCs of type t = (deficiency multiset of its switches, repeat profile:
the multiset of l - 1 >= 1 over the other PCs, parts <= 3 by Lemma 1);
N_j pairs of PCs sharing j + 1 switches (j = 3, 2, 1)."""
import sys
from fractions import Fraction
from math import comb
import os
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from farkas import convmin, parts, certify as farkas_certify  # noqa: E402

BOUND = 1000  # every count at most 1000 (the variables' bound)

P, K, W, EXC, DMIN = 33, 6, 7, 4, 3  # EXC = K W - K - (P - 1)


def system(b, no_four):
    """Rows (coefficients doubled to integers later), lower and upper bounds."""
    degs = list(range(DMIN, W + 1))
    types = [(m, t) for dl in range(EXC + 1) for m in parts(dl, W - DMIN, K)
             for t in parts(EXC - dl, 3)]
    D, T = len(degs), len(types)
    iN = D + T  # N_3, N_2, N_1
    nv = iN + 3
    rows, lo, hi = [], [], []

    def add(c, l, h):
        rows.append(c); lo.append(l); hi.append(h)

    def vec():
        return np.zeros(nv)
    c = vec(); c[:D] = 1; add(c, b, b)
    c = vec(); c[:D] = degs; add(c, P * K, P * K)
    c = vec(); c[D:D + T] = 1; add(c, P, P)
    for i, d in enumerate(degs):  # incidences of degree-d switches
        if d == W:
            continue
        c = vec(); c[i] = -d
        for j, (m, t) in enumerate(types):
            c[D + j] = m.count(W - d)
        add(c, 0, 0)
    for j, part in enumerate((3, 2, 1)):  # each pair is two parts
        c = vec()
        for i, (m, t) in enumerate(types):
            c[D + i] = t.count(part)
        c[iN + j] = -2; add(c, 0, 0)
    c = vec()  # Q from the PCs >= Q from the switches (convexity per switch)
    for j, part in enumerate((3, 2, 1)):
        c[iN + j] = comb(part + 1, 2)
    for i, d in enumerate(degs):
        c[i] = -Fraction(convmin((K - 1) * d, b - 1), 2)
    add(c, 0, np.inf)
    if no_four:
        c = vec(); c[iN] = 1; add(c, 0, 0)
    return np.array(rows, dtype=float), lo, hi



failed = 0
for b in range(29, 67):
    no_four = b <= 31
    if not farkas_certify(*system(b, no_four), BOUND):
        failed += 1
        print("no certificate:", b)
    else:
        print(f"{b} switches{' without a 4-intersection' if no_four else ''}: refuted by an exact certificate", flush=True)
assert failed == 0
print("Lemma 2 checked")
