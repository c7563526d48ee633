"""Lemma 4: for 21, 22 and 23 switches and every degree distribution
(degrees 5..11, Lemma 2), the counting LP below has no solution. HiGHS
(scipy) finds Farkas multipliers; they are rounded to fractions and the
contradiction is checked in exact arithmetic.

Variables (all >= 0 and <= 1000): n_d switches of degree d; y_t PCs of
type t = (deficiency multiset of its switches, repeat profile); N_j pairs
of PCs sharing j + 1 switches (j = 4..1); al, be, ga, ep the components of
the 4-intersection graph; z_t = y_t / 2 for types with a twin."""
import sys
from fractions import Fraction
from math import comb
from collections import Counter
import os
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from farkas import convmin, parts, certify as farkas_certify  # noqa: E402

BOUND = 1000  # every count at most 1000 (the variables' bound)

P, K, W, EXC = 44, 5, 11, 7  # EXC = K W - K - (P - 1)


def system(b, fixed):
    """Rows (coefficients doubled to integers), lower and upper bounds."""
    degs = list(range(5, W + 1))
    types = [(m, t) for dl in range(EXC + 1) for m in parts(dl, W - 5, K)
             for t in parts(EXC - dl, 4) if t.count(4) <= 1]
    D, T = len(degs), len(types)
    iN = D + T          # N_4, N_3, N_2, N_1
    iA = iN + 4         # al, be, ga, ep
    iZ = iA + 4
    nv = iZ + T
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
    for j, part in enumerate((4, 3, 2, 1)):  # each pair is two parts
        c = vec()
        for i, (m, t) in enumerate(types):
            c[D + i] = t.count(part)
        c[iN + j] = -2; add(c, 0, 0)
    c = vec()  # Q from the PCs >= Q from the switches (convexity per switch)
    for j, part in enumerate((4, 3, 2, 1)):
        c[iN + j] = comb(part + 1, 2)
    for i, d in enumerate(degs):
        c[i] = -Fraction(convmin((K - 1) * d, b - 1), 2)
    add(c, 0, np.inf)
    for part in (1, 2, 3):  # twins: parts toward a twin pair come in pairs
        c = vec()
        for i, (m, t) in enumerate(types):
            if 4 in t:
                c[D + i] += t.count(part)
            c[D + i] -= 2 * (t.count(part) // 2)
        add(c, -np.inf, 0)
    al, be, ga, ep = iA, iA + 1, iA + 2, iA + 3
    c = vec()
    for i, (m, t) in enumerate(types):
        c[D + i] = t.count(3) == 2
    c[al] -= 1; c[be] -= 3; c[ga] -= 1; add(c, 0, 0)
    c = vec()
    for i, (m, t) in enumerate(types):
        c[D + i] = t.count(3) == 1
    c[al] -= 2; c[ga] -= 2; c[ep] -= 2; add(c, 0, 0)
    c = vec()
    for i, (m, t) in enumerate(types):
        c[D + i] = 4 in t and 3 in t
    c[al] -= 2; add(c, 0, 0)
    c = vec()
    for i, (m, t) in enumerate(types):
        c[D + i] = t.count(3) == 1 and 2 in t and 4 not in t
    c[ga] -= 2; add(c, 0, np.inf)
    for i, (m, t) in enumerate(types):  # twins have one type
        if 4 in t:
            c = vec(); c[D + i] = 1; c[iZ + i] = -2; add(c, 0, 0)
    for i, d in enumerate(degs):
        if d != W:
            c = vec(); c[i] = 1; add(c, fixed.get(d, 0), fixed.get(d, 0))
    return np.array(rows, dtype=float), lo, hi



failed = 0
for b in (21, 22, 23):
    count = 0
    for deficit in parts(11 * b - 220, 6):
        if len(deficit) > b:
            continue
        fixed = dict(Counter(W - j for j in deficit))
        A, lo, hi = system(b, fixed)
        if not farkas_certify(A, lo, hi, BOUND):
            failed += 1
            print("no certificate:", b, fixed)
        count += 1
    print(f"{b} switches: {count} degree distributions, each refuted by an exact certificate", flush=True)
assert failed == 0
