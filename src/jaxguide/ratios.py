"""How two timings compare: a ratio, how sure it is, and the words for it.

:func:`~jaxguide.timing.compare` times its candidates round by round, so round ``i``
of every candidate ran at nearly the same moment, under the same load. The
ratio of two candidates is therefore taken round by round, and their
:class:`Ratio` is the median of those per-round ratios with a
distribution-free interval around it: the order statistics that cover the
median with at least 95 % probability (the sign test's interval, which
assumes nothing about how the noise is distributed).

A difference is **resolved** when that whole interval lies beyond
:data:`RESOLUTION` (5 %) on one side of 1, and **similar** when it lies
inside that band; an interval that crosses the band's edge leaves the run
unable to rank the two, and no sentence may explain such a difference. The
5 % band keeps a few per cent of systematic drift, which interleaving cannot
remove, from being called a difference. pyperf and Google Benchmark decide
the same question with significance tests (pyperf's ``compare_to`` a
t-test, Google Benchmark's ``compare.py`` a Mann-Whitney U test); the sign
test's interval asks less of the noise and gives a size with the answer.

That interval describes **one run**: rounds of a few milliseconds in one
process. Another process, memory layout or load moves a ratio further than
that (see :mod:`jaxguide.records`), so a page states sizes from the record
of many runs (:meth:`Ratio.with_record`, which :func:`~jaxguide.site.glue` applies
by the ratio's name) and shows its own run's value beside them.
"""

from __future__ import annotations

import html
import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Literal

from ._render import CSS_CLASS
from .records import Recorded

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

#: What one run's ratio says (one candidate slower or faster beyond the
#: noise, the two within 5 %, or a run too noisy to rank them).
Verdict = Literal["slower", "faster", "similar", "unresolved"]


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
        expected: The direction :meth:`expect` was asked for, if any.
        record: The same ratio's recorded runs, whose range the words state
            (:meth:`with_record`), if any.
    """

    label: str
    reference: str
    value: float
    low: float
    high: float
    coverage: float
    rounds: int
    expected: Verdict | None = None
    record: Recorded | None = None

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
        :data:`RESOLUTION`; ``"similar"`` when it lies inside the band
        (the two differ by less than 5 %); else ``"unresolved"``."""
        if self.low >= RESOLUTION:
            return "slower"
        if self.high <= 1 / RESOLUTION:
            return "faster"
        if self.low >= 1 / RESOLUTION and self.high <= RESOLUTION:
            return "similar"
        return "unresolved"

    @property
    def resolved(self) -> bool:
        """Whether this run ranks the two beyond the noise (see :attr:`verdict`)."""
        return self.verdict in {"slower", "faster"}

    def expect(self, verdict: Literal["slower", "faster"]) -> Ratio:
        """This ratio, marked as the lesson ``verdict``; raise where this run
        measured the opposite.

        A page whose lesson is a direction (a Python loop is slower than
        ``scan``) calls this, so that a build where the direction reversed
        fails, naming the page, instead of printing prose that the table
        contradicts. It fails where this run's median lies on the wrong side
        of 1, or the run ranked the two the other way; a run too noisy to
        rank them whose median still leans the expected way (a busy
        machine) does not fail. When the page glues the ratio (:func:`~jaxguide.site.glue`),
        its record must state the same direction: the whole range a rerun
        lands in (every recorded run, widened by a quarter) beyond 5 % on
        that side. A lesson that holds only sometimes is not one a build can
        enforce.

        Raises:
            UnexpectedVerdict: An ``AssertionError`` naming both candidates,
                the measured ratio and its interval.
            ValueError: If ``verdict`` is not a direction.
        """
        if verdict not in {"slower", "faster"}:
            msg = f"expect() guards a direction, 'slower' or 'faster'; got {verdict!r}"
            raise ValueError(msg)
        opposite = "faster" if verdict == "slower" else "slower"
        wrong_side = self.value <= 1 if verdict == "slower" else self.value >= 1
        if self.verdict == opposite or wrong_side:
            msg = (
                f"expected {self.label!r} to be {verdict} than {self.reference!r}, "
                f"but this run measured the opposite: {self}. The lesson the "
                "page draws from this measurement reversed on this machine."
            )
            raise UnexpectedVerdict(msg)
        return replace(self, expected=verdict)

    def with_record(self, record: Recorded | None) -> Ratio:
        """This ratio, stating sizes from ``record`` (the same ratio's
        recorded runs) instead of this run's rounds.

        Raises:
            UnexpectedVerdict: If the ratio was :meth:`expect`-ed and the
                record does not state that direction.
        """
        if record is None:
            return self
        if self.expected is not None and record.verdict(RESOLUTION) != self.expected:
            low, high = record.range
            msg = (
                f"{record.name}: the page expects {self.label!r} to be "
                f"{self.expected} than {self.reference!r}, but from "
                f"{record.runs} recorded runs a rerun lands in "
                f"{low:.2f}–{high:.2f}×, not wholly beyond {RESOLUTION}× on one "
                "side: drop the expect() or make the gap larger."
            )
            raise UnexpectedVerdict(msg)
        return replace(self, record=record)

    def _words(self, code: str, lang: Literal["en", "ko"]) -> str:
        """The clause in ``lang``; ``code`` formats a label (backticks, <code>)."""
        a, b = code.format(self.label), code.format(self.reference)
        if self.record is not None:
            return _recorded_words(self.record, self.value, a, b, lang)
        return _run_words(self, a, b, lang)

    def __str__(self) -> str:
        return self._words("'{}'", "en")

    def __repr__(self) -> str:  # what a notebook's plain text shows
        return str(self)

    def _repr_markdown_(self) -> str:
        return self._words("`{}`", "en")

    def _repr_html_(self) -> str:
        """Both languages, as the site's tables carry them: the stylesheet
        shows the page's language; elsewhere ``hidden`` leaves the English."""
        escaped = replace(
            self, label=html.escape(self.label), reference=html.escape(self.reference)
        )
        code = "<code>{}</code>"
        return (
            f'<span class="{CSS_CLASS} jaxguide-verdict">'
            f'<span lang="en">{escaped._words(code, "en")}</span>'
            f'<span lang="ko" hidden>{escaped._words(code, "ko")}</span></span>'
        )


def _outward(low: float, high: float, *, decimals: bool = False) -> str:
    """A range rounded outward to two significant digits: ``8.4–15``; or to
    two decimals, for ratios near 1 whose digits matter: ``0.98–1.03``.

    >>> _outward(8.46, 14.2), _outward(0.912, 1.31), _outward(3.0, 7.8)
    ('8.4–15', '0.91–1.4', '3.0–7.8')
    >>> _outward(0.985, 1.0295, decimals=True)
    '0.98–1.03'
    """
    if decimals:
        return f"{math.floor(low * 100 + 1e-9) / 100:.2f}–{math.ceil(high * 100 - 1e-9) / 100:.2f}"

    def rounded(value: float, up: bool) -> float:
        scale = 10.0 ** (math.floor(math.log10(value)) - 1)
        steps = value / scale
        return (math.ceil(steps - 1e-9) if up else math.floor(steps + 1e-9)) * scale

    def shown(value: float) -> str:  # two significant digits, "3.0" not "3"
        if value < 1:
            return f"{value:.2g}"
        return f"{value:.1f}" if value < 10 else f"{value:.0f}"

    return f"{shown(rounded(low, False))}–{shown(rounded(high, True))}"


def _recorded_words(
    record: Recorded, this_run: float, a: str, b: str, lang: Literal["en", "ko"]
) -> str:
    """The record's range for ``a`` against ``b``, and this run's value."""
    low, high = record.range
    verdict = record.verdict(RESOLUTION)
    if verdict == "faster":
        span, run = _outward(1 / high, 1 / low), _factor(1 / this_run)
    elif verdict == "unranked":
        span, run = _outward(low, high, decimals=True), f"{this_run:.2f}"
    else:
        span, run = _outward(low, high), _factor(this_run)
    if lang == "ko":
        machine = record.machine.replace("-core", "코어")
        where = (
            f"{machine}에서 유휴·부하 상태를 섞어 {record.runs}번 실행한 기록으로 "
            f"추정한 재실행 범위, 이번 실행은 {run}배"
        )
        return {
            "slower": f"{a}의 실행 시간이 {b}의 {span}배였습니다({where})",
            "faster": f"{a} 쪽이 {b}보다 {span}배 빨랐습니다({where})",
            "unranked": (
                f"{a}의 실행 시간이 {b}의 {span}배로, 다시 실행하면 어느 쪽이든 더 "
                f"빠를 수 있습니다({where})"
            ),
        }[verdict]
    where = (
        f"a rerun's range estimated from {record.runs} runs on a {record.machine}, "
        f"idle and busy; this run: {run}×"
    )
    return {
        "slower": f"{a} took {span}× as long as {b} ({where})",
        "faster": f"{a} ran {span}× as fast as {b} ({where})",
        "unranked": (
            f"{a} took {span}× the time of {b}: a rerun may find either one "
            f"faster ({where})"
        ),
    }[verdict]


def _run_words(ratio: Ratio, a: str, b: str, lang: Literal["en", "ko"]) -> str:
    """This run's verdict, with the interval of its rounds."""
    verdict = ratio.verdict
    if verdict == "faster":
        factor, low, high = 1 / ratio.value, 1 / ratio.high, 1 / ratio.low
    else:
        factor, low, high = ratio.value, ratio.low, ratio.high
    if verdict in {"slower", "faster"}:
        # Ends that round alike (12.6 and 13.4) would read "13–13".
        same = _factor(low) == _factor(high)
        span = f"{low:.3g}–{high:.3g}" if same else f"{_factor(low)}–{_factor(high)}"
    else:
        span = f"{low:.2f}–{high:.2f}"
    if lang == "ko":
        rounds = f"이번 실행의 라운드들로 구한 95% 구간 {span}배"
        return {
            "slower": f"{a}의 실행 시간이 {b}의 {_factor(factor)}배였습니다({rounds})",
            "faster": f"{a} 쪽이 {b}보다 {_factor(factor)}배 빨랐습니다({rounds})",
            "similar": (
                f"{a}의 실행 시간이 {b}의 {factor:.2f}배로, 차이가 5% 이내였습니다"
                f"({rounds})"
            ),
            "unresolved": (
                f"{a}의 실행 시간이 {b}의 {factor:.2f}배였지만, 이번 실행은 잡음이 "
                f"커서 어느 쪽이 빠른지 가릴 수 없었습니다(라운드들로 구한 95% 구간 "
                f"{span}배)"
            ),
        }[verdict]
    rounds = f"95 % interval of its rounds {span}×"
    return {
        "slower": f"{a} took {_factor(factor)}× as long as {b} in this run ({rounds})",
        "faster": f"{a} ran {_factor(factor)}× as fast as {b} in this run ({rounds})",
        "similar": (
            f"{a} and {b} took times within 5 % of each other in this run "
            f"(ratio {factor:.2f}×, {rounds})"
        ),
        "unresolved": (
            f"this run could not rank {a} and {b} (ratio {factor:.2f}×, {rounds})"
        ),
    }[verdict]
