"""Lemma 6: for every number of switches b = 30..76 the counting LP below has
no solution, in each case of the split: a 5-cherry exists or not (Lemma 3),
a twin with a 4-neighbour exists or not (Lemma 5); when needed per number k
of twin pairs and per degree distribution. HiGHS (scipy) finds Farkas
multipliers; they are rounded to fractions and checked in exact arithmetic.

Variables (all >= 0 and <= 2016): n_d switches of degree d (5..13, Lemma 4);
y_t PCs of type t = (deficiency multiset m, twin or not, parts u towards each
other twin pair (a twin pair is met twice), parts s towards singles);
N^tt_j, N^ts_j, N^ss_j pairs at l = j + 1 between twins, twin and single,
singles; g, e the 5-cherries and lone 5-edges.
Usage: lp_certificates.py [b_first b_last]"""
import sys
from collections import Counter
from math import comb
import numpy as np
from common import P, K, W, EXC, convmin, parts, certify

DMIN = 5


def allowed(m, tw, u, s):
    """Lemma 3 and its consequences on a type."""
    full = tuple(sorted(u + u + s + ((5,) if tw else ()), reverse=True))
    if 4 in u:            # a single is no 5-neighbour of a twin
        return False
    if tw and 4 in full:  # a twin has no 5-neighbour
        return False
    if full.count(4) >= 2 and (m != () or full != (4, 4, 1)):
        return False      # the centre of a 5-cherry has profile (4,4,1), deficiency 0
    return True


def full_profile(m, tw, u, s):
    return tuple(sorted(u + u + s + ((5,) if tw else ()), reverse=True))


TYPES = []
for dl in range(EXC + 1):
    for m in parts(dl, W - DMIN, K):
        for tw in (0, 1):
            r = EXC - dl - 5 * tw
            if r < 0:
                continue
            for h in range(r // 2 + 1):
                for u in parts(h, 4):
                    for s in parts(r - 2 * h, 4):
                        if allowed(m, tw, u, s):
                            TYPES.append((m, tw, u, s, full_profile(m, tw, u, s)))


def system(b, k, fixed, cherry, twin4):
    """Rows (lo <= row . x <= hi) that every design with b switches satisfies
    in the given case; k = number of twin pairs or None."""
    types = [t for t in TYPES if twin4 or not (t[1] and 3 in t[4])]
    degs = list(range(DMIN, W + 1))
    D, T = len(degs), len(types)
    iTT, iTS, iSS = D + T, D + T + 4, D + T + 8
    iG, iE = D + T + 12, D + T + 13
    n = iE + 1
    rows, lo, hi = [], [], []

    def add(c, l, h):
        rows.append(c), lo.append(l), hi.append(h)

    def trow(f):
        c = np.zeros(n)
        for j, (m, tw, u, s, full) in enumerate(types):
            c[D + j] = f(m, tw, u, s, full)
        return c

    c = np.zeros(n); c[:D] = 1; add(c, b, b)
    c = np.zeros(n); c[:D] = degs; add(c, P * K, P * K)
    add(trow(lambda m, tw, u, s, f: 1), P, P)
    for i, d in enumerate(degs):  # incidences at switches of degree d
        if d == W:
            continue
        c = trow(lambda m, tw, u, s, f: m.count(W - d)); c[i] = -d; add(c, 0, 0)
        if fixed is not None:
            c = np.zeros(n); c[i] = 1; add(c, fixed.get(d, 0), fixed.get(d, 0))
    for j in range(1, 5):  # every pair is a part of both of its PCs
        c = trow(lambda m, tw, u, s, f: tw * 2 * u.count(j)); c[iTT + j - 1] = -2; add(c, 0, 0)
        c = trow(lambda m, tw, u, s, f: tw * s.count(j)); c[iTS + j - 1] = -1; add(c, 0, 0)
        c = trow(lambda m, tw, u, s, f: (1 - tw) * 2 * u.count(j)); c[iTS + j - 1] = -1; add(c, 0, 0)
        c = trow(lambda m, tw, u, s, f: (1 - tw) * s.count(j)); c[iSS + j - 1] = -2; add(c, 0, 0)
    # Q = sum over PC pairs of C(l, 2) = sum over switch pairs of C(c, 2)
    twins = trow(lambda m, tw, u, s, f: tw)
    c = 7.5 * twins  # a twin pair has l = 6, C(6, 2) = 15
    for j in range(1, 5):
        for base in (iTT, iTS, iSS):
            c[base + j - 1] = comb(j + 1, 2)
    for i, d in enumerate(degs):
        c[i] = -convmin((K - 1) * d, b - 1) / 2
    add(c, 0, np.inf)
    # the 5-intersection graph: lone edges and cherries (Lemma 3)
    c = trow(lambda m, tw, u, s, f: f.count(4) == 2); c[iG] = -1; add(c, 0, 0)
    c = trow(lambda m, tw, u, s, f: f.count(4) == 1); c[iG] = -2; c[iE] = -2; add(c, 0, 0)
    c = trow(lambda m, tw, u, s, f: f.count(4) == 1 and 3 in f); c[iG] = -2; add(c, 0, np.inf)
    if cherry:  # Lemma 3: a cherry brings 20 PCs of profile (1^9)
        c = np.zeros(n); c[iG] = 1; add(c, 1, np.inf)
        add(trow(lambda m, tw, u, s, f: f == (1,) * 9), 20, np.inf)
    else:
        c = np.zeros(n); c[iG] = 1; add(c, 0, 0)
    # heavy groups (Lemma 3): 6 #(singles with >= 6 partners) >= 7 N_4
    c = trow(lambda m, tw, u, s, f: 6 * (len(f) >= 6 and not tw)); c[iSS + 3] = -7; add(c, 0, np.inf)
    if twin4:  # Lemma 5: a twin with a 4-neighbour brings 10 PCs with >= 4 partners
        add(trow(lambda m, tw, u, s, f: tw and 3 in f), 1, np.inf)
        add(trow(lambda m, tw, u, s, f: len(f) >= 4), 10, np.inf)
    for i, d in enumerate(degs):  # twin pairs at a switch: 2 t_x <= d_x
        c = trow(lambda m, tw, u, s, f: tw * ((K - len(m)) if d == W else m.count(W - d)))
        c[i] = -2 * (d // 2); add(c, -np.inf, 0)
    if k is not None:  # Lemma 2 (twin sets): sum_x t_x^2 = sum_T (5 + k + sum u_T)
        add(twins, 2 * k, 2 * k)
        c = trow(lambda m, tw, u, s, f: tw * (5 + sum(u) - (W // 2) * (K - len(m))
                                               - sum((W - x) // 2 for x in m)))
        add(c, -np.inf, -2 * k * k)
        c = trow(lambda m, tw, u, s, f: tw * (5 + sum(u)))
        add(c, -(-72 * k * k // b) - 2 * k * k, np.inf)
    return np.array(rows), lo, hi


def refute(b, cherry, twin4):
    """Certificates for one b and case; returns how many LPs were needed."""
    if certify(*system(b, None, None, cherry, twin4)):
        return 1
    count = 1
    for k in range(P // 2 + 1):
        count += 1
        if certify(*system(b, k, None, cherry, twin4)):
            continue
        for deficit in parts(W * b - P * K, W - DMIN):
            if len(deficit) > b:
                continue
            count += 1
            fixed = dict(Counter(W - j for j in deficit))
            assert certify(*system(b, k, fixed, cherry, twin4)), (b, k, fixed, cherry, twin4)
    return count


if __name__ == "__main__":
    first, last = (int(sys.argv[1]), int(sys.argv[2])) if len(sys.argv) > 2 else (30, 76)
    total = 0
    for b in range(first, last + 1):
        n = sum(refute(b, cherry, twin4) for cherry in (False, True) for twin4 in (False, True))
        total += n
        print(f"{b} switches: refuted by {n} exact certificates", flush=True)
    print(f"{first}..{last} switches: {total} exact certificates")
