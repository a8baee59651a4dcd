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

The range a page states is the recorded runs' own range, widened by a
quarter at each end (:data:`WIDEN`): of ten runs, the one left out is the
lowest or the highest one time in five, so the bare range would miss a
rerun that often. ``tests/benchmarks/timing_record.py`` leaves each run out
in turn and reports the share that lands in the others' widened range
(target 90 %). For the record of 2026-12-02 it was 96.6 %, but the widening
was chosen on its first eight runs; its ninth and tenth rounds, not used for
that choice, gave 94.7 %. It is an estimate for this kind of machine under
at most every core busy, and the words say so. Intervals from a bell curve fit these runs badly:
idle and busy runs are two populations, a busy machine moving a ratio by a
factor of several, and one interval over both came out wide enough to cross
1 where every run agreed.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Literal

__all__ = [
    "MIN_RUNS",
    "RECORDING_ENV",
    "RECORDS",
    "WIDEN",
    "Recorded",
    "recorded",
    "rerun_range",
]

#: The folder of the records, inside the installed package.
RECORDS = Path(__file__).with_name("records")
#: Set to "1" while a record is being made, so that pages state the run they
#: are in, not the record being replaced.
RECORDING_ENV = "JAXGUIDE_RECORDING"

#: How far beyond the recorded runs a page says a rerun can land, each way.
WIDEN = 1.25
#: The fewest runs a record states a range from.
MIN_RUNS = 4

#: How the recorded runs rank two candidates (beyond 5 % one way, or not at
#: all, a rerun finding either one faster). Within 5 % is not a verdict a
#: record can give, its range being wider than that band.
RecordVerdict = Literal["slower", "faster", "unranked"]


def rerun_range(values: Sequence[float]) -> tuple[float, float]:
    """Where a rerun lands: the range of ``values`` (ratios, all > 0),
    widened by :data:`WIDEN` at each end.

    Raises:
        ValueError: With fewer than :data:`MIN_RUNS` values, or a value that
            is not > 0.

    Examples:
        >>> rerun_range([2.0, 2.2, 2.4, 2.1])
        (1.6, 3.0)
    """
    if len(values) < MIN_RUNS:
        msg = f"{len(values)} runs cannot say where a rerun lands: record at least {MIN_RUNS}"
        raise ValueError(msg)
    if min(values) <= 0:
        msg = f"ratios must be positive, got {min(values)!r}"
        raise ValueError(msg)
    return min(values) / WIDEN, max(values) * WIDEN


@dataclass(frozen=True)
class Recorded:
    """One glued ratio's values over a record's runs.

    Attributes:
        name: The glue name the page gives the ratio.
        values: The ratio in each run, as the page's :class:`~jaxguide.ratios.Ratio`
            gives it (the median of per-round ratios, or of the medians for
            timings made apart).
        busy: For each run, whether every core was kept busy meanwhile.
        machine: What made the record, as the words say it: ``"2-core CPU"``.
        date: The day the record was made (ISO format).
    """

    name: str
    values: tuple[float, ...]
    busy: tuple[bool, ...]
    machine: str
    date: str

    @property
    def range(self) -> tuple[float, float]:
        """Where a rerun lands, idle or busy (see :func:`rerun_range`)."""
        return rerun_range(self.values)

    def verdict(self, resolution: float) -> RecordVerdict:
        """``slower``/``faster`` when the whole range lies beyond
        ``resolution`` on one side of 1, else ``unranked``."""
        low, high = self.range
        if low >= resolution:
            return "slower"
        if high <= 1 / resolution:
            return "faster"
        return "unranked"

    @property
    def runs(self) -> int:
        return len(self.values)


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
    it (a new measurement), a record is being made, or JAX runs on another
    backend than the CPU the records were made on (a reader's GPU in Colab
    states its own run, not a CPU's range)."""
    if os.environ.get(RECORDING_ENV) == "1":
        return None
    import jax  # noqa: PLC0415 (a page that glues a ratio has imported it)

    if jax.default_backend() != "cpu":
        return None
    return _load(RECORDS if folder is None else folder).get(name)
