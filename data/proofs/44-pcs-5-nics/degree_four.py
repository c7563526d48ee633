"""Lemma 2's finite step: with a switch of 4 PCs, the other 40 PCs form a
5-partite family (one switch in each of A1..A4 and one in R) whose
pair counting fails for every possible multiset of R's degrees."""
from math import comb
from itertools import combinations_with_replacement as multisets

def convmin(total, slots):
    """Least sum of C(c, 2) over `slots` integers c >= 0 adding up to `total`."""
    q, r = divmod(total, slots)
    return r * comb(q + 1, 2) + (slots - r) * comb(q, 2)

# Most sum of C(l, 2) over a PC's repeats l - 1 >= 1 adding up to e (parts <= 4).
QMAX = {0: 0, 1: 1, 2: 3, 3: 6, 4: 10, 5: 11, 6: 13, 7: 16}
survivors = []
for size in range(4, 11):
    for degs in multisets(range(4, 12), size):
        if sum(degs) != 40:
            continue
        upper = sum(d * QMAX[d - 4] for d in degs)  # twice Q, from the PCs
        lower = 2 * (convmin(240, 96) + sum(convmin(4 * d, 16) for d in degs))  # twice Q, from the switches
        if upper >= lower:
            survivors.append(degs)
print("R degree multisets the counting allows:", survivors)
assert not survivors
