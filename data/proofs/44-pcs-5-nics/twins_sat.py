"""Lemma 5's finite step: 44 PCs of 5 switches on 20 switches of exactly 11
PCs, pairwise sharing a switch, with seven twin triangles (F, F, G):
|F & G| = 4 and F meets every PC outside its triangle in exactly one
switch. Writes twins.cnf and twins.drat; check with `rate twins.cnf twins.drat`.

Symmetry breaking (valid for the group that permutes the triangles, the
other PCs and the switches): triangles in non-increasing order of F, the
other PCs in non-increasing order, switch columns in non-increasing order
(the lexicographically largest matrix of an orbit has all three)."""
import itertools
import sys
import time
from pysat.card import CardEnc, EncType
from pysat.formula import CNF, IDPool
from pysat.solvers import Solver

P, K, W, B, NT = 44, 5, 11, 20, 7


def lex_geq(cnf, pool, a, b, tag):
    """a >= b lexicographically, index 0 most significant."""
    prev = None
    for i in range(len(a)):
        cnf.append(([] if prev is None else [-prev]) + [a[i], -b[i]])
        if i == len(a) - 1:
            break
        e = pool.id((tag, i))
        head = [] if prev is None else [-prev]
        cnf.append([e] + head + [a[i], b[i]])
        cnf.append([e] + head + [-a[i], -b[i]])
        prev = e


def build():
    pool, cnf = IDPool(), CNF()
    x = [[pool.id(("x", e, p)) for p in range(B)] for e in range(P)]

    def meet(e, f):
        ms = []
        for p in range(B):
            a = pool.id(("m", e, f, p))
            cnf.extend([[-a, x[e][p]], [-a, x[f][p]], [a, -x[e][p], -x[f][p]]])
            ms.append(a)
        return ms
    twin = lambda e: e < 3 * NT and e % 3 == 1
    core = lambda e: e < 3 * NT and e % 3 == 0
    for i in range(NT):
        F, F2, G = 3 * i, 3 * i + 1, 3 * i + 2
        for p in range(B):
            cnf.extend([[-x[F][p], x[F2][p]], [x[F][p], -x[F2][p]]])
        cnf.extend(CardEnc.equals(lits=meet(F, G), bound=K - 1, vpool=pool, encoding=EncType.seqcounter).clauses)
    for e in range(P):
        if not twin(e):
            cnf.extend(CardEnc.equals(lits=x[e], bound=K, vpool=pool, encoding=EncType.seqcounter).clauses)
    for p in range(B):
        col = [x[e][p] for e in range(P)]
        cnf.extend(CardEnc.equals(lits=col, bound=W, vpool=pool, encoding=EncType.seqcounter).clauses)
    reps = [e for e in range(P) if not twin(e)]
    for e, f in itertools.combinations(reps, 2):
        if core(e) and f == e + 2:
            continue
        ms = meet(e, f)
        if core(e) or core(f):
            cnf.extend(CardEnc.equals(lits=ms, bound=1, vpool=pool, encoding=EncType.pairwise).clauses)
        else:
            cnf.append(ms)
    for i in range(NT - 1):
        lex_geq(cnf, pool, x[3 * i], x[3 * i + 3], ("tri", i))
    for e in range(3 * NT, P - 1):
        lex_geq(cnf, pool, x[e], x[e + 1], ("row", e))
    cols = [[x[e][p] for e in range(P)] for p in range(B)]
    for p in range(B - 1):
        lex_geq(cnf, pool, cols[p], cols[p + 1], ("col", p))
    return cnf


cnf = build()
cnf.to_file("twins.cnf")
start = time.time()
with Solver(name="cadical153", bootstrap_with=cnf.clauses, with_proof=True) as s:
    answer = s.solve()
    print(f"{cnf.nv} variables, {len(cnf.clauses)} clauses: {'satisfiable' if answer else 'UNSAT'} in {time.time() - start:.1f} s")
    if answer is not False:
        sys.exit(1)
    with open("twins.drat", "w") as f:
        f.writelines(line + "\n" for line in s.get_proof())
print("wrote twins.cnf and twins.drat; now: rate twins.cnf twins.drat")
