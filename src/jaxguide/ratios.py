"""How two timings compare: a ratio, how sure it is, and the words for it.

:func:`~jaxguide.timing.compare` times its candidates round by round, so round ``i``
of every candidate ran at nearly the same moment, under the same load. The
ratio of two candidates is therefore taken round by round, and their
:class:`Ratio` is the median of those per-round ratios with a
distribution-free interval around it: the order statistics that cover the
median with at least 95 % probability (the sign test's interval, which
assumes nothing about how the noise is distributed).

A difference is **resolved** when that whole interval lies beyond
:data:`RESOLUTION` (5 %) on one side of 1. A ratio whose interval reaches
into that band is reported as a difference this machine could not resolve,
and no sentence may explain it. The 5 % band keeps a few per cent of
systematic drift, which interleaving cannot remove, from being called a
difference. The rule borrows from pyperf's "not significant" and Google
Benchmark's U test, both of which refuse to rank timings whose spread
overlaps.
"""

from __future__ import annotations

import html
import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from ._render import CSS_CLASS

__all__ = [
    "CONFIDENCE",
    "MIN_ROUNDS",
    "RESOLUTION",
    "Ratio",
    "UnexpectedVerdict",
    "Verdict",
    "median_interval",
]

#: The least probability with which an interval covers the median.
CONFIDENCE = 0.95
#: The smallest ratio reported as a difference (5 %).
RESOLUTION = 1.05
#: The fewest rounds whose extremes cover the median at 95 %.
MIN_ROUNDS = 6

#: What a ratio says, one candidate slower or faster beyond the noise, or neither.
Verdict = Literal["slower", "faster", "unresolved"]


def median_interval(
    values: Sequence[float], confidence: float = CONFIDENCE
) -> tuple[float, float, float]:
    """The interval of order statistics that covers the median of ``values``.

    Returns ``(low, high, coverage)``: the ``k``-th smallest and ``k``-th
    largest value for the largest ``k`` whose coverage, from the binomial
    distribution with p = 1/2, is still at least ``confidence``.

    Raises:
        ValueError: With fewer values than that needs (6 at 95 %).

    Examples:
        >>> low, high, coverage = median_interval(range(1, 16))
        >>> low, high, round(coverage, 3)
        (4, 12, 0.965)
        >>> median_interval([1.0, 2.0, 3.0])
        Traceback (most recent call last):
        ValueError: 3 rounds cannot bound a median at 95 %: take at least 6
    """
    n = len(values)
    tail = (1 - confidence) / 2
    below, k = 0.0, 0
    for j in range(n):
        mass = math.comb(n, j) / 2**n
        if below + mass > tail:
            break
        below, k = below + mass, j + 1
    if k == 0:
        minimum = next(m for m in range(1, 64) if 2.0**-m <= tail)
        msg = (
            f"{n} rounds cannot bound a median at {confidence * 100:.0f} %: "
            f"take at least {minimum}"
        )
        raise ValueError(msg)
    ordered = sorted(values)
    return ordered[k - 1], ordered[n - k], 1 - 2 * below


def _factor(ratio: float) -> str:
    """Two significant digits, at least the units: ``3.2``, ``12``, ``150``.

    >>> [_factor(r) for r in (3.24, 9.97, 12.4, 151.0)]
    ['3.2', '10', '12', '151']
    """
    rounded = float(f"{ratio:.2g}") if ratio < 100 else ratio
    return f"{rounded:.1f}" if rounded < 10 else f"{rounded:.0f}"


class UnexpectedVerdict(AssertionError):
    """A measurement the page's lesson rests on came out otherwise."""


@dataclass(frozen=True, repr=False)
class Ratio:
    """How long ``label`` took against ``reference``, round by round.

    Attributes:
        label: The candidate measured.
        reference: The candidate it is compared with.
        value: Median over the rounds of ``time(label) / time(reference)``:
            above 1, ``label`` took longer.
        low: Lower end of the interval covering that median.
        high: Upper end of that interval.
        coverage: Probability that the interval covers the median (>= 95 %).
        rounds: Rounds measured.
    """

    label: str
    reference: str
    value: float
    low: float
    high: float
    coverage: float
    rounds: int

    @classmethod
    def of(
        cls,
        label: str,
        times: Sequence[float],
        reference: str,
        reference_times: Sequence[float],
    ) -> Ratio:
        """The ratio of two candidates' per-round times, paired by round."""
        if len(times) != len(reference_times):
            msg = (
                f"{label!r} has {len(times)} rounds and {reference!r} "
                f"{len(reference_times)}: a ratio pairs them round by round"
            )
            raise ValueError(msg)
        per_round = [a / b for a, b in zip(times, reference_times, strict=True)]
        low, high, coverage = median_interval(per_round)
        return cls(
            label,
            reference,
            statistics.median(per_round),
            low,
            high,
            coverage,
            len(per_round),
        )

    @classmethod
    def unpaired(
        cls,
        label: str,
        times: Sequence[float],
        reference: str,
        reference_times: Sequence[float],
    ) -> Ratio:
        """The ratio of two candidates timed apart (two
        :func:`~jaxguide.timing.benchmark` calls), whose rounds cannot be paired.

        The value is the ratio of the medians; the interval runs from the
        fastest round over the slowest reference round to the slowest over
        the fastest. Each median lies within its rounds' range with
        probability ``1 - 2**(1 - n)``, so the interval covers the ratio of
        the medians with at least the product of the two: 95 % from 7 rounds
        each. Wide, but it needs no pairing.
        """
        coverage = (1 - 2.0 ** (1 - len(times))) * (
            1 - 2.0 ** (1 - len(reference_times))
        )
        if coverage < CONFIDENCE:
            msg = (
                f"{len(times)} and {len(reference_times)} rounds cannot bound a "
                f"ratio of medians at {CONFIDENCE * 100:.0f} %: take at least 7 each"
            )
            raise ValueError(msg)
        return cls(
            label,
            reference,
            statistics.median(times) / statistics.median(reference_times),
            min(times) / max(reference_times),
            max(times) / min(reference_times),
            coverage,
            min(len(times), len(reference_times)),
        )

    @property
    def verdict(self) -> Verdict:
        """``"slower"`` or ``"faster"`` when the whole interval lies beyond
        :data:`RESOLUTION`, else ``"unresolved"``."""
        if self.low >= RESOLUTION:
            return "slower"
        if self.high <= 1 / RESOLUTION:
            return "faster"
        return "unresolved"

    @property
    def resolved(self) -> bool:
        """Whether the two differ beyond the noise (see :attr:`verdict`)."""
        return self.verdict != "unresolved"

    def expect(self, verdict: Verdict) -> Ratio:
        """Return this ratio if its verdict is ``verdict``, else raise.

        A page whose lesson is a direction (a Python loop is slower than
        ``scan``) calls this, so that a build where the direction did not hold
        fails, naming the page, instead of printing prose that the table
        contradicts.

        Raises:
            UnexpectedVerdict: An ``AssertionError`` naming both candidates,
                the measured ratio and its interval.
        """
        if self.verdict != verdict:
            msg = (
                f"expected {self.label!r} to be {verdict} than {self.reference!r} "
                f"beyond the noise, but measured: {self}. The lesson the page "
                "draws from this measurement did not hold on this machine: "
                "re-run it with nothing else running, or make the gap larger."
            )
            raise UnexpectedVerdict(msg)
        return self

    def _words(self, code: str, lang: Literal["en", "ko"]) -> str:
        """The clause in ``lang``; ``code`` formats a label (backticks, <code>)."""
        a, b = code.format(self.label), code.format(self.reference)
        if self.verdict == "slower":
            factor, low, high = self.value, self.low, self.high
        else:
            factor, low, high = 1 / self.value, 1 / self.high, 1 / self.low
        span = f"{_factor(low)}–{_factor(high)}"
        if lang == "ko":
            interval = f"95% 구간 {span}배"
            if self.verdict == "slower":
                return (
                    f"{a} 쪽이 {b}보다 {_factor(factor)}배 오래 걸렸습니다({interval})"
                )
            if self.verdict == "faster":
                return f"{a} 쪽이 {b}보다 {_factor(factor)}배 빨랐습니다({interval})"
            return (
                f"{a}, {b} 두 쪽의 시간은 이 컴퓨터로 구별할 수 없었습니다"
                f"(비율 {self.value:.2f}배, 95% 구간 {self.low:.2f}–{self.high:.2f}배)"
            )
        interval = f"95 % interval {span}×"
        if self.verdict == "slower":
            return f"{a} took {_factor(factor)}× as long as {b} ({interval})"
        if self.verdict == "faster":
            return f"{a} ran {_factor(factor)}× as fast as {b} ({interval})"
        return (
            f"{a} and {b} took times this machine could not tell apart (ratio "
            f"{self.value:.2f}×, 95 % interval {self.low:.2f}–{self.high:.2f}×)"
        )

    def __str__(self) -> str:
        return self._words("'{}'", "en")

    def __repr__(self) -> str:  # what a notebook's plain text shows
        return str(self)

    def _repr_markdown_(self) -> str:
        return self._words("`{}`", "en")

    def _repr_html_(self) -> str:
        """Both languages, as the site's tables carry them: the stylesheet
        shows the page's language; elsewhere ``hidden`` leaves the English."""
        escaped = Ratio(
            html.escape(self.label),
            html.escape(self.reference),
            self.value,
            self.low,
            self.high,
            self.coverage,
            self.rounds,
        )
        code = "<code>{}</code>"
        return (
            f'<span class="{CSS_CLASS} jaxguide-verdict">'
            f'<span lang="en">{escaped._words(code, "en")}</span>'
            f'<span lang="ko" hidden>{escaped._words(code, "ko")}</span></span>'
        )
