"""Constants of 64 PCs with 6 NICs on 13-port switches, and the shared
checkers (../farkas.py) with this proof's bound on every count."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from farkas import convmin, parts, certify as farkas_certify  # noqa: E402,F401

P, K, W = 64, 6, 13
EXC = K * W - K - (P - 1)  # exc(E) + def(E) = 9 for every PC
BIG = 2016  # no count exceeds C(64, 2)


def certify(A, lo, hi):
    """The exact Farkas check of ../farkas.py, every count at most BIG."""
    return farkas_certify(A, lo, hi, BIG)
