"""Confidence intervals for a proportion (win rates of simulations).

The Wilson score interval (E. B. Wilson, JASA 22, 1927) stays inside [0, 1] and keeps close to
its nominal coverage for small samples and rates near 0 or 1, where the normal approximation
p +- z*sqrt(p(1-p)/n) leaves [0, 1] or collapses to a point.
"""

from __future__ import annotations

import math

Z95 = 1.959963984540054  # the standard normal's 97.5% quantile: a two-sided 95% interval


def wilson_interval(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of successes/trials; (0.0, 1.0) for no trials (nothing is known)."""
    if successes < 0 or trials < 0 or successes > trials:
        raise ValueError(f"need 0 <= successes <= trials, got {successes} of {trials}")
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    z2n = z * z / trials
    centre = (p + z2n / 2) / (1 + z2n)
    half = z / (1 + z2n) * math.sqrt(p * (1 - p) / trials + z2n / (4 * trials))
    # At p = 0 or 1 that bound is the end of [0, 1] exactly (rounding would miss it by an ulp).
    return (0.0 if successes == 0 else centre - half), (1.0 if successes == trials else centre + half)
