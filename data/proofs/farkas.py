"""What the case proofs' checkers share: the least second moment of counts
with a fixed total, partitions, and exact Farkas certificates for the
counting LPs. Each proof's scripts import it from the folder above theirs."""
from fractions import Fraction
from math import comb
import numpy as np
from scipy.optimize import linprog


def convmin(total, slots):
    """Least sum of C(c, 2) over `slots` integers c >= 0 summing to `total`."""
    q, r = divmod(total, slots)
    return r * comb(q + 1, 2) + (slots - r) * comb(q, 2)


def parts(n, mx, maxlen=99):
    """Partitions of n into at most maxlen parts, each at most mx."""
    if n == 0:
        yield ()
        return
    if maxlen == 0:
        return
    for p in range(min(n, mx), 0, -1):
        for rest in parts(n - p, p, maxlen - 1):
            yield (p,) + rest


def certify(A, lo, hi, bound):
    """True if lo <= A x <= hi has no solution with 0 <= x <= bound, shown
    by Farkas multipliers u that HiGHS finds, rounded to fractions and
    checked in exact arithmetic: u.A <= r componentwise with
    u.bounds > bound * sum(r+). Rows are doubled so that every coefficient
    is an integer."""
    m, n = A.shape
    A2 = np.round(A * 2).astype(np.int64)
    assert (A2 == A * 2).all(), "every coefficient is a half-integer"
    ge = [r for r in range(m) if lo[r] != -np.inf]
    le = [r for r in range(m) if hi[r] != np.inf]
    M = np.hstack([A2[ge].T, -A2[le].T]).astype(float)
    gain = np.array([2 * lo[r] for r in ge] + [-2 * hi[r] for r in le], dtype=float)
    res = linprog(-gain, A_ub=np.vstack([M, -gain[None, :]]),
                  b_ub=np.concatenate([np.zeros(n), [1.0]]),
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
    # The bounds exactly, as the floats they are (each twice an integer).
    rhs = sum(u[k] * Fraction(2 * lo[r]) for k, r in enumerate(ge)) - \
        sum(u[len(ge) + k] * Fraction(2 * hi[r]) for k, r in enumerate(le))
    return rhs > bound * sum(x for x in comb_ if x > 0)
