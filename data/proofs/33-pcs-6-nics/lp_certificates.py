"""Lemma 2: the counting LP below has no solution for 32 to 66 switches, and
none for 29 to 31 switches when no two PCs share exactly 4 switches. HiGHS
(scipy) finds Farkas multipliers; they are rounded to fractions and the
contradiction is checked in exact arithmetic.

Variables (all >= 0 and <= 1000): n_d switches of degree d (3..7, Lemma 1);
y_t PCs of type t = (deficiency multiset of its switches, repeat profile:
the multiset of l - 1 >= 1 over the other PCs, parts <= 3 by Lemma 1);
N_j pairs of PCs sharing j + 1 switches (j = 3, 2, 1)."""
from fractions import Fraction
from math import comb
import numpy as np
from scipy.optimize import linprog

P, K, W, EXC, DMIN = 33, 6, 7, 4, 3  # EXC = K W - K - (P - 1)


def convmin(total, slots):
    """Least sum of C(c, 2) over `slots` integers c >= 0 summing to `total`."""
    q, r = divmod(total, slots)
    return r * comb(q + 1, 2) + (slots - r) * comb(q, 2)


def parts(n, mx, maxlen=99):
    if n == 0:
        yield ()
        return
    if maxlen == 0:
        return
    for p in range(min(n, mx), 0, -1):
        for rest in parts(n - p, p, maxlen - 1):
            yield (p,) + rest


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


def certify(A, lo, hi):
    """Farkas multipliers u >= 0 on the >= and <= sides with u.A <= 0 (up to
    a rounding residue r, absorbed by the variables' bound 1000) and u.bounds
    > 1000 * sum(r+)."""
    m, n = A.shape
    A2 = np.round(A * 2).astype(np.int64)
    assert np.allclose(A2, A * 2)
    ge = [r for r in range(m) if lo[r] != -np.inf]
    le = [r for r in range(m) if hi[r] != np.inf]
    M = np.hstack([A2[ge].T, -A2[le].T]).astype(float)
    gain = np.array([2 * lo[r] for r in ge] + [-2 * hi[r] for r in le], dtype=float)
    res = linprog(-gain, A_ub=np.vstack([M, -gain[None, :]]), b_ub=np.concatenate([np.zeros(n), [1.0]]),
                  bounds=[(0, 1e4)] * (len(ge) + len(le)), method="highs")
    if res.status != 0 or -res.fun < 1e-6:
        return False
    u = [Fraction(v).limit_denominator(10**6) for v in res.x]
    # Farkas multipliers must be non-negative for the combination to hold.
    if any(x < 0 for x in u):
        return False
    comb_ = [Fraction(0)] * n
    for k, r in enumerate(ge):
        if u[k]:
            for j in range(n):
                comb_[j] += u[k] * int(A2[r, j])
    for k, r in enumerate(le):
        w = u[len(ge) + k]
        if w:
            for j in range(n):
                comb_[j] -= w * int(A2[r, j])
    rhs = sum(u[k] * Fraction(2 * lo[r]) for k, r in enumerate(ge)) - \
        sum(u[len(ge) + k] * Fraction(2 * hi[r]) for k, r in enumerate(le))
    return rhs > 1000 * sum(x for x in comb_ if x > 0)


failed = 0
for b in range(29, 67):
    no_four = b <= 31
    if not certify(*system(b, no_four)):
        failed += 1
        print("no certificate:", b)
    else:
        print(f"{b} switches{' without a 4-intersection' if no_four else ''}: refuted by an exact certificate", flush=True)
assert failed == 0
print("Lemma 2 checked")
