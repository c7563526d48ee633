"""Lemmas 3 and 4: the PCs around two PCs F, G that share exactly four
switches, and an exact LP certificate against every case.

F = S + {f1, f2}, G = S + {g1, g2} with S = {s1..s4}; T = S + {f1, f2, g1, g2}
(switches 0..7 here: S = 0..3, f = 4, 5, g = 6, 7) and R the other switches.
A PC's *trace* is the set of T-switches it uses. Lemma 3 lists the possible
multisets of the 31 other traces up to the symmetries of (F, G); Lemma 4
refutes each by a linear system over the R-switches (see README.md)."""
import itertools
from collections import Counter
from fractions import Fraction

P, K = 33, 6
S, FS, GS = (0, 1, 2, 3), (4, 5), (6, 7)
F_, G_ = S + FS, S + GS


def exc_total(w):
    """exc(E) + def(E) for every PC: K w - K - (P - 1)."""
    return K * w - K - (P - 1)


def meet(a, b):
    return len(set(a) & set(b))


def symmetries():
    """Maps of T that fix the pair {F, G}: S_4 on S, f1 <-> f2, g1 <-> g2, F <-> G."""
    for ps in itertools.permutations(S):
        for f, g in ((FS, GS), (FS[::-1], GS), (FS, GS[::-1]), (FS[::-1], GS[::-1])):
            for swap in (False, True):
                m = dict(zip(S, ps))
                m.update(zip(FS + GS, g + f if swap else f + g))
                yield m


SYMS = list(symmetries())


def canon(traces):
    return min(tuple(sorted(tuple(sorted(m[x] for x in t)) for t in traces)) for m in SYMS)


def t_level(traces, deg, w):
    """Each PC E: exc(E) >= rep_T(E) (repeats inside T), def(E) >= def_T(E)
    (deficiency of its T-switches), so rep_T + def_T <= 4; and the PCs it
    does not meet in T, z_T(E), are met in its k = 6 - |trace| R-switches:
    z_T(E) = 6 k + rep_T(E) + def_T(E) - 4 exactly (README, Lemma 3)."""
    allt = [F_, G_] + list(traces)
    for i, a in enumerate(allt):
        rep = sum(max(meet(a, b) - 1, 0) for j, b in enumerate(allt) if j != i)
        dfc = sum(w - deg[x] for x in a)
        z = sum(1 for j, b in enumerate(allt) if j != i and meet(a, b) == 0)
        if rep + dfc > exc_total(w) or z != (w - 1) * (K - len(a)) + rep + dfc - exc_total(w):
            return False
    return True


def cases(w=7, dmin=3):
    """Lemma 3: every multiset of traces of the 31 other PCs, up to symmetry."""
    traces = [t for n in range(1, 9) for t in itertools.combinations(range(8), n)
              if meet(t, F_) >= 1 and meet(t, G_) >= 1 and len(t) <= K]
    generic = [t for t in traces if meet(t, F_) == 1 and meet(t, G_) == 1]
    assert generic == [(s,) for s in S] + [(f, g) for f in FS for g in GS]
    special = [t for t in traces if t not in generic]
    budget = exc_total(w) - (len(S) - 1)  # exc(F) = 3 + r_F <= 4, so r_F <= 1
    out = set()
    for k in range(0, 2 * budget + 1):
        for sp in itertools.combinations_with_replacement(special, k):
            r_f = sum(meet(t, F_) - 1 for t in sp)
            r_g = sum(meet(t, G_) - 1 for t in sp)
            if r_f > budget or r_g > budget:
                continue
            for cells in itertools.product(range(w), repeat=4):  # PCs on f_i and g_j
                m_traces = list(sp) + [t for t, c in zip(generic[4:], cells) for _ in range(c)]
                if any(sum(1 for t in [F_, G_] + m_traces if x in t) > w for x in FS + GS):
                    continue
                for ns in itertools.product(range(w - 1), repeat=4):  # PCs on one s only
                    if sum(ns) + sum(cells) != P - 2 - k:
                        continue
                    ms = m_traces + [t for t, c in zip(generic[:4], ns) for _ in range(c)]
                    deg = [sum(1 for t in [F_, G_] + ms if x in t) for x in range(8)]
                    if any(d > w or d < dmin for d in deg):
                        continue
                    if sum(w - deg[x] for x in F_) + r_f != budget or sum(w - deg[x] for x in G_) + r_g != budget:
                        continue
                    if t_level(ms, deg, w):
                        out.add(canon(ms))
    return sorted(out)


def comps(n, caps):
    if not caps:
        if n == 0:
            yield ()
        return
    for v in range(min(n, caps[0]) + 1):
        for rest in comps(n - v, caps[1:]):
            yield (v,) + rest


def rows_of(traces, w=7, max_r=23):
    """The classes (distinct traces) and the rows of Lemma 4, each as
    (coefficient of an R-switch type, sense, right-hand side, name). A type
    is the vector of how many PCs of each class an R-switch holds."""
    cnt = Counter(traces)
    cls = sorted(cnt)
    N = [cnt[c] for c in cls]
    allt = [F_, G_] + list(traces)
    deg = [sum(1 for t in allt if x in t) for x in range(8)]
    beta = []  # exc + def left for R: exc_total - rep_T - def_T
    for a in cls:
        rep = sum(max(meet(a, b) - 1, 0) for b in allt) - (len(a) - 1)  # not itself
        beta.append(exc_total(w) - rep - sum(w - deg[x] for x in a))
    m = len(cls)
    rows = [(lambda t: 1, "<=", max_r, "R-switches")]
    for i in range(m):
        rows.append((lambda t, i=i: t[i], "==", N[i] * (K - len(cls[i])), f"incidences of {cls[i]}"))
    for i, j in itertools.combinations(range(m), 2):
        if meet(cls[i], cls[j]) == 0:
            rows.append((lambda t, i=i, j=j: -t[i] * t[j], "<=", -N[i] * N[j], f"{cls[i]}-{cls[j]} meet in R"))
    near = [[j for j in range(m) if j != i and meet(cls[i], cls[j]) >= 1] for i in range(m)]

    def waste(t, i):
        """R-repeats toward PCs already met in T, and deficiency, of class i."""
        return t[i] * (t[i] - 1) + t[i] * (w - sum(t)) + sum(t[i] * t[j] for j in near[i])
    for i in range(m):
        rows.append((lambda t, i=i: waste(t, i), "<=", N[i] * beta[i], f"repeats and deficiency of {cls[i]}"))
    return cls, N, rows


def system(traces, w=7, dmin=3, max_r=23):
    """Every R-switch type (degree dmin..w, Lemma 1) and the rows evaluated on them."""
    cls, N, rows = rows_of(traces, w, max_r)
    types = [c for d in range(dmin, w + 1) for c in comps(d, N)]
    return cls, types, [([f(t) for t in types], sense, rhs, name) for f, sense, rhs, name in rows]


def certificate(rows, ntypes):
    """Multipliers u (free on ==, >= 0 on <=) with sum u_r a_r >= 0 on every
    type and sum u_r rhs_r < 0, checked in exact arithmetic: then no
    n >= 0 satisfies the rows."""
    import numpy as np
    from scipy.optimize import linprog
    R = len(rows)
    A = np.array([r[0] for r in rows], dtype=float)
    rhs = np.array([r[2] for r in rows], dtype=float)
    bounds = [(None, None) if r[1] == "==" else (0, None) for r in rows]
    # minimise u.rhs subject to A^T u >= 0 and u.rhs >= -1
    res = linprog(rhs, A_ub=np.vstack([-A.T, -rhs[None, :]]), b_ub=np.concatenate([np.zeros(ntypes), [1.0]]),
                  bounds=bounds, method="highs")
    if res.status != 0 or res.fun > -1e-9:
        return None
    for den in (10**3, 10**6, 10**9):
        u = [Fraction(v).limit_denominator(den) for v in res.x]
        u = [x if rows[k][1] == "==" or x > 0 else Fraction(0) for k, x in enumerate(u)]
        if check(rows, ntypes, u):
            return u
    return None


def check(rows, ntypes, u):
    for j in range(ntypes):
        if sum(u[k] * rows[k][0][j] for k in range(len(rows)) if u[k]) < 0:
            return False
    return sum(u[k] * rows[k][2] for k in range(len(rows))) < 0


if __name__ == "__main__":
    cs = cases()
    print(f"Lemma 3: {len(cs)} cases of traces up to symmetry", flush=True)
    failed = 0
    for i, c in enumerate(cs):
        cls, types, rows = system(c)
        u = certificate(rows, len(types))
        desc = ", ".join(f"{n} x {t}" for t, n in sorted(Counter(c).items()))
        if u is None:
            failed += 1
            print(f"case {i}: NO CERTIFICATE ({desc})", flush=True)
        else:
            used = sum(1 for x in u if x)
            print(f"case {i}: {len(types)} switch types, refuted by {used} multipliers ({desc})", flush=True)
    assert failed == 0
    print("Lemma 4 checked: no case has a design")
