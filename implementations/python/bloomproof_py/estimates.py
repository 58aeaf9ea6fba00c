"""fnv1a-utf16-v1 estimates for n distinct entries under ideal, independent, uniform hashes.

* classic  = (1 - exp(-k n / m))^k                 the approximation the page shows
* finite_m = (1 - (1 - 1/m)^(k n))^k               the same without the exp approximation
* exact    = E[(X/m)^k], X = number of bits set after k*n independent uniform throws
             into m bits: the exact expected false-positive rate of an ideal filter
             (a query's k positions are themselves independent uniform, repeats allowed).
* optimal_k = the k in 1..=12 that minimises the classic estimate (ties: the smaller k);
             1 when n = 0.

`exact` is computed with exact integer arithmetic and rounded once:
P(a given set of s positions all set after t throws) = sum_i (-1)^i C(s,i) (1 - i/m)^t,
and a query tuple of k positions covers exactly s distinct positions in
C(m,s) * s! * S(k,s) of the m^k tuples (S = Stirling numbers of the second kind), so

    exact = sum_s C(m,s) s! S(k,s) sum_i (-1)^i C(s,i) (m-i)^t  /  (m^k * m^t).
"""
from math import comb, expm1, factorial


def classic(m, k, n):
    return (0.0 - expm1(-k * n / m)) ** k  # 0.0 - x: never -0.0 (n = 0)


def finite_m(m, k, n):
    t = k * n
    return ((m ** t - (m - 1) ** t) / m ** t) ** k  # int / int is correctly rounded


def _stirling2(k):
    """S(k, s) for s in 0..=k."""
    row = [1]  # S(0, 0)
    for n in range(1, k + 1):
        new = [0] * (n + 1)
        for s in range(1, n + 1):
            new[s] = s * (row[s] if s < len(row) else 0) + row[s - 1]
        row = new
    return row


def exact_fraction(m, k, n):
    """(numerator, denominator) of the exact expected rate."""
    t = k * n
    stirling = _stirling2(k)
    powers = [(m - i) ** t for i in range(min(k, m) + 1)]
    numerator = 0
    for s in range(1, min(k, m) + 1):
        covered = sum((-1) ** i * comb(s, i) * powers[i] for i in range(s + 1))
        numerator += comb(m, s) * factorial(s) * stirling[s] * covered
    return numerator, m ** (k + t)


def exact(m, k, n):
    numerator, denominator = exact_fraction(m, k, n)
    return numerator / denominator  # Python's int / int is correctly rounded


def optimal_k(m, n, k_max=12):
    if n == 0:
        return 1
    best, best_value = 1, None
    for k in range(1, k_max + 1):
        value = classic(m, k, n)
        if best_value is None or value < best_value:
            best, best_value = k, value
    return best


def all_estimates(m, k, n):
    return {"classic": classic(m, k, n), "finite_m": finite_m(m, k, n),
            "exact": exact(m, k, n), "optimal_k": optimal_k(m, n)}
