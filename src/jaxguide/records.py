"""Where a rerun lands: each measured ratio as recorded over many runs.

One run of a page measures each ratio once. Its rounds, interleaved, bound
that run's median well, but not the next run's: another process, memory
layout or load moves the ratio further than the rounds of one process
show. So the sizes a page states come from a **record**: the measuring
pages run several times, each in a fresh process, some with the machine
idle and some with every core kept busy (``nox -s record``), and every
glued ratio's values are kept with where and how they were made. The files
lie beside this module (``records/*.json``) and ship with ``jaxguide``, so a
reader's notebook states the same range as the site.

The range a page states is a 95 % prediction interval for one more run,
taken on the logarithm of the recorded values (Student's t, the runs'
mean and spread), and never narrower than the recorded values themselves.
Idle and busy runs are two populations (a busy machine can move a ratio by
a factor of several), so where each has runs enough, the range is the span
of their two intervals: one interval over both would assume one bell curve
and come out wide enough to cross 1 where every run agreed.
``tests/benchmarks/timing_record.py`` checks it by leaving each run out in
turn: at least 90 % of the runs left out must land in the range the others
give.
"""

from __future__ import annotations

import json
import math
import os
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Literal

__all__ = [
    "RECORDING_ENV",
    "RECORDS",
    "Recorded",
    "prediction_range",
    "recorded",
]

#: The folder of the records, inside the installed package.
RECORDS = Path(__file__).with_name("records")
#: Set to "1" while a record is being made, so that pages state the run they
#: are in, not the record being replaced.
RECORDING_ENV = "JAXGUIDE_RECORDING"

#: Student's t at 97.5 % for 1 to 30 degrees of freedom; 1.96 beyond.
_T975 = (
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
    2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
    2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
)  # fmt: skip

#: How the recorded runs rank two candidates: beyond 5 % one way, within
#: 5 %, one way in some runs and the other in others, or too widely spread
#: to say.
RecordVerdict = Literal["slower", "faster", "similar", "varies", "unranked"]


def prediction_range(values: Sequence[float]) -> tuple[float, float]:
    """Where one more run's ratio lands, at 95 %, from ``values`` (all > 0).

    The prediction interval of a normal sample, on the logarithms, widened to
    the values themselves where they reach further.

    Raises:
        ValueError: With fewer than 3 values, or a value that is not > 0.

    Examples:
        >>> low, high = prediction_range([2.0, 2.2, 2.4, 2.1, 2.3])
        >>> round(low, 2), round(high, 2)
        (1.76, 2.73)
    """
    if len(values) < 3:
        msg = f"{len(values)} runs cannot predict the next: record at least 3"
        raise ValueError(msg)
    if min(values) <= 0:
        msg = f"ratios must be positive, got {min(values)!r}"
        raise ValueError(msg)
    logs = [math.log(v) for v in values]
    n = len(logs)
    t = _T975[n - 2] if n - 1 <= len(_T975) else 1.96
    margin = t * statistics.stdev(logs) * math.sqrt(1 + 1 / n)
    centre = statistics.fmean(logs)
    return (
        min(*values, math.exp(centre - margin)),
        max(*values, math.exp(centre + margin)),
    )


@dataclass(frozen=True)
class Recorded:
    """One glued ratio's values over a record's runs.

    Attributes:
        name: The glue name the page gives the ratio.
        values: The ratio in each run (each run's median of per-round ratios).
        busy: For each run, whether every core was kept busy meanwhile.
        machine: What made the record: ``"2-core CPU"`` and the CPU's model.
        date: The day the record was made (ISO format).
    """

    name: str
    values: tuple[float, ...]
    busy: tuple[bool, ...]
    machine: str
    date: str

    @property
    def range(self) -> tuple[float, float]:
        """Where a rerun lands, idle or busy (see :func:`prediction_range`)."""
        idle = [v for v, busy in zip(self.values, self.busy, strict=True) if not busy]
        busy = [v for v, busy in zip(self.values, self.busy, strict=True) if busy]
        if len(idle) < 3 or len(busy) < 3:
            return prediction_range(self.values)
        (idle_low, idle_high), (busy_low, busy_high) = (
            prediction_range(idle),
            prediction_range(busy),
        )
        return min(idle_low, busy_low), max(idle_high, busy_high)

    def verdict(self, resolution: float) -> RecordVerdict:
        """``slower``/``faster`` when the whole range lies beyond
        ``resolution`` on one side of 1; ``similar`` inside it; ``varies``
        where the recorded runs themselves ranked the two both ways; else
        ``unranked``."""
        low, high = self.range
        if low >= resolution:
            return "slower"
        if high <= 1 / resolution:
            return "faster"
        if low >= 1 / resolution and high <= resolution:
            return "similar"
        if min(self.values) < 1 < max(self.values):
            return "varies"
        return "unranked"

    @property
    def runs(self) -> int:
        return len(self.values)

    @property
    def busy_runs(self) -> int:
        return sum(self.busy)


def _machine(record: dict[str, Any]) -> str:
    machine = record["machine"]
    return f"{machine['cores']}-core {machine['platform'].upper()}"


@cache
def _load(folder: Path) -> dict[str, Recorded]:
    """Every ratio of the records in ``folder`` made on a CPU, the newest
    record's where two have the same name."""
    found: dict[str, tuple[str, Recorded]] = {}
    for path in sorted(folder.glob("*.json")):
        record = json.loads(path.read_text(encoding="utf-8"))
        if record["machine"]["platform"] != "cpu":
            continue  # an accelerator's record never states a CPU's size
        for name, entry in record["ratios"].items():
            recorded_ratio = Recorded(
                name=name,
                values=tuple(entry["values"]),
                busy=tuple(entry["busy"]),
                machine=_machine(record),
                date=record["date"],
            )
            if name not in found or found[name][0] < record["date"]:
                found[name] = (record["date"], recorded_ratio)
    return {name: entry for name, (_, entry) in found.items()}


def recorded(name: str, folder: Path | None = None) -> Recorded | None:
    """The recorded runs of the ratio glued as ``name`` (in the records of
    ``folder``, by default :data:`RECORDS`), or ``None`` where no record has
    it (a new measurement) or a record is being made."""
    if os.environ.get(RECORDING_ENV) == "1":
        return None
    return _load(RECORDS if folder is None else folder).get(name)
