"""GPU records: the JSON files examples/gpu_record.py writes, loaded and checked.

A record is ``docs/_data/gpu_records/<date>-<device>.json``: the device,
driver, JAX and jaxlib, the date, the files the run executed with one sha256
over them, the git commit and command line, and every measurement's raw
times and values. A malformed one raises :class:`RecordError`, naming the
file and the field, and so does one made on a device that is not a GPU.

Format 1 hashed ``examples/gpu_record.py`` alone; format 2 hashes every file
in ``script.files``, each one's path and bytes in turn (:func:`files_sha256`).
Both are read.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn

__all__ = [
    "FORMAT",
    "FORMATS",
    "GpuRecord",
    "Measurement",
    "RecordError",
    "TimingRow",
    "TimingTable",
    "files_sha256",
    "load_record",
    "load_records",
    "newest_holding",
]

FORMAT = 2  # the layout examples/gpu_record.py writes
FORMATS = (1, FORMAT)  # the layouts this site reads
NAME = re.compile(r"[a-z0-9][a-z0-9-]*")  # a measurement's name
# The records a page's directives saw, as page metadata: Sphinx merges it
# from parallel readers, and a new record re-reads the pages that use them.
SEEN = "jaxguide_gpu_records"
FactValue = str | int | float | bool | list[str]

SCRIPT = "examples/gpu_record.py"


KINDS = {
    str: "text",
    int: "an integer",
    float: "a number",
    bool: "true or false",
    dict: "an object",
    list: "a list",
}


class RecordError(ValueError):
    """A record that cannot be read: the message names the file and the field."""


@dataclass(frozen=True)
class TimingRow:
    """One candidate of a table: seconds per call, round by round."""

    label: str
    first_call: float
    times: tuple[float, ...]
    number: int  # calls per round
    blocked: bool

    @property
    def median(self) -> float:
        """Median seconds per call over the rounds."""
        return statistics.median(self.times)

    @property
    def iqr(self) -> float:
        """Interquartile range of the rounds, in seconds per call (0 for one
        round), as :attr:`jaxguide.Timing.iqr` computes it."""
        if len(self.times) < 2:
            return 0.0
        low, _, high = statistics.quantiles(self.times, n=4, method="inclusive")
        return high - low


@dataclass(frozen=True)
class TimingTable:
    """Candidates timed together, compared with ``baseline``."""

    title: str
    baseline: str
    rows: tuple[TimingRow, ...]


@dataclass(frozen=True)
class Measurement:
    """What one name records: timing tables and observed values (facts)."""

    name: str
    title: str
    page: str
    tables: tuple[TimingTable, ...]
    facts: dict[str, FactValue]


@dataclass(frozen=True)
class GpuRecord:
    """One run of examples/gpu_record.py: what ran it, and what it measured."""

    path: Path
    date: str  # UTC, ISO 8601
    smoke: bool
    device_kind: str
    platform: str
    device_count: int
    driver_version: str | None
    python: str
    jax: str
    jaxlib: str
    plugins: dict[str, str]
    script_sha256: str  # format 1: of the script alone; 2: of ``files``
    command: str
    measurements: dict[str, Measurement]
    format: int = FORMAT
    files: tuple[str, ...] = (SCRIPT,)  # repository paths the run executed
    commit: str | None = None  # git's HEAD then, where git told it
    uncommitted: bool | None = None  # whether ``files`` differed from it
    examples_sha256: str | None = None  # format 2: of the examples among ``files``


class _Fields:
    """Reads a record's fields, each error naming the file and the field."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def fail(self, message: str) -> NoReturn:
        msg = (
            f"{self.path}: {message} (records are written by {SCRIPT}: write "
            "it again rather than editing it)"
        )
        raise RecordError(msg) from None

    def value(self, data: Mapping[str, Any], key: str, where: str) -> object:
        if key not in data:
            self.fail(f"missing field {where + key!r}")
        return data[key]

    def typed(self, data: Mapping[str, Any], key: str, where: str, kind: type) -> Any:
        found = self.value(data, key, where)
        # bool is an int to Python, not to a record
        wrong_bool = isinstance(found, bool) and kind is not bool
        if not isinstance(found, kind) or wrong_bool:
            if kind is float and isinstance(found, int) and not wrong_bool:
                return float(found)
            self.fail(f"field {where + key!r} must be {KINDS[kind]}, got {found!r}")
        return found

    def text(self, data: Mapping[str, Any], key: str, where: str) -> str:
        return str(self.typed(data, key, where, str))

    def mapping(self, data: Mapping[str, Any], key: str, where: str) -> dict[str, Any]:
        return dict(self.typed(data, key, where, dict))

    def items(self, data: Mapping[str, Any], key: str, where: str) -> list[Any]:
        return list(self.typed(data, key, where, list))

    def seconds(self, data: Mapping[str, Any], key: str, where: str) -> float:
        found = float(self.typed(data, key, where, float))
        if not math.isfinite(found) or found < 0:
            self.fail(f"field {where + key!r} must be seconds >= 0, got {found}")
        return found


def _row(fields: _Fields, data: Any, where: str) -> TimingRow:
    if not isinstance(data, dict):
        fields.fail(f"{where!r} must be an object, got {data!r}")
    times = fields.items(data, "times", f"{where}.")
    if not times:
        fields.fail(f"field {where + '.times'!r} holds no round")
    number = int(fields.typed(data, "number", f"{where}.", int))
    if number < 1:
        fields.fail(f"field {where + '.number'!r} must be at least 1")
    return TimingRow(
        label=fields.text(data, "label", f"{where}."),
        first_call=fields.seconds(data, "first_call", f"{where}."),
        times=tuple(
            fields.seconds({f"times[{i}]": t}, f"times[{i}]", f"{where}.")
            for i, t in enumerate(times)
        ),
        number=number,
        blocked=bool(fields.typed(data, "blocked", f"{where}.", bool)),
    )


def _table(fields: _Fields, data: Any, where: str) -> TimingTable:
    if not isinstance(data, dict):
        fields.fail(f"{where!r} must be an object, got {data!r}")
    rows = tuple(
        _row(fields, row, f"{where}.rows[{i}]")
        for i, row in enumerate(fields.items(data, "rows", f"{where}."))
    )
    baseline = fields.text(data, "baseline", f"{where}.")
    if baseline not in {row.label for row in rows}:
        fields.fail(f"{where}.baseline {baseline!r} is not a row's label")
    return TimingTable(fields.text(data, "title", f"{where}."), baseline, rows)


def _fact(fields: _Fields, value: object, where: str) -> FactValue:
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return [str(item) for item in value]
    if not isinstance(value, str | int | float | bool):
        fields.fail(f"{where!r} must be text, a number, true/false or a list of text")
    return value


def _measurement(fields: _Fields, name: str, data: Any) -> Measurement:
    where = f"measurements.{name}"
    if not NAME.fullmatch(name):
        fields.fail(f"{where!r}: a name is lowercase letters, digits and -")
    if not isinstance(data, dict):
        fields.fail(f"{where!r} must be an object, got {data!r}")
    tables = tuple(
        _table(fields, table, f"{where}.tables[{i}]")
        for i, table in enumerate(fields.items(data, "tables", f"{where}."))
    )
    facts = {
        key: _fact(fields, value, f"{where}.facts.{key}")
        for key, value in fields.mapping(data, "facts", f"{where}.").items()
    }
    if not tables and not facts:
        fields.fail(f"{where!r} holds no table and no fact")
    return Measurement(
        name=name,
        title=fields.text(data, "title", f"{where}."),
        page=fields.text(data, "page", f"{where}."),
        tables=tables,
        facts=facts,
    )


def _sources(
    fields: _Fields, script: Mapping[str, Any]
) -> tuple[tuple[str, ...], str | None, bool | None]:
    """Format 2's ``script.files``, ``script.commit`` (text or null) and
    ``script.uncommitted_changes`` (true, false or null)."""
    files = fields.items(script, "files", "script.")
    if not files or not all(isinstance(name, str) for name in files):
        fields.fail("field 'script.files' must be a list of the files the run executed")
    commit = fields.value(script, "commit", "script.")
    if commit is not None and not isinstance(commit, str):
        fields.fail(f"field 'script.commit' must be text or null, got {commit!r}")
    uncommitted = fields.value(script, "uncommitted_changes", "script.")
    if uncommitted is not None and not isinstance(uncommitted, bool):
        fields.fail(
            "field 'script.uncommitted_changes' must be true, false or null, "
            f"got {uncommitted!r}"
        )
    return tuple(files), commit, uncommitted


def files_sha256(root: Path, files: Sequence[str]) -> str:
    """One sha256 over ``files`` (paths relative to ``root``), in the order
    given: each path, its length in bytes, then its bytes, as format 2's
    ``script.sha256``."""
    digest = hashlib.sha256()
    for name in files:
        data = (root / name).read_bytes()
        digest.update(f"{name}\0{len(data)}\0".encode())
        digest.update(data)
    return digest.hexdigest()


def load_record(path: Path) -> GpuRecord:
    """Read and check one record.

    Raises:
        RecordError: If the file is not JSON, is of another format, or a field
            is missing or of the wrong type; the message names the file and
            the field (``device.kind``, ``measurements.jit-selu.tables[0]``).
    """
    fields = _Fields(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        fields.fail(f"not a readable JSON file: {error}")
    if not isinstance(data, dict):
        fields.fail("the record must be a JSON object")
    layout = fields.value(data, "format", "")
    if type(layout) is not int or layout not in FORMATS:
        readable = " and ".join(map(str, FORMATS))
        fields.fail(f"format {layout!r}, this site reads formats {readable}")
    device = fields.mapping(data, "device", "")
    software = fields.mapping(data, "software", "")
    script = fields.mapping(data, "script", "")
    driver = fields.value(device, "driver_version", "device.")
    if driver is not None and not isinstance(driver, str):
        fields.fail(
            f"field 'device.driver_version' must be text or null, got {driver!r}"
        )
    plugins = fields.mapping(software, "plugins", "software.")
    if not all(isinstance(v, str) for v in plugins.values()):
        fields.fail("field 'software.plugins' must map names to versions")
    sha = fields.text(script, "sha256", "script.")
    if not re.fullmatch(r"[0-9a-f]{64}", sha):
        fields.fail(f"field 'script.sha256' is not a sha256: {sha!r}")
    measurements = fields.mapping(data, "measurements", "")
    files, commit, uncommitted = (
        _sources(fields, script) if layout != 1 else ((SCRIPT,), None, None)
    )
    examples_sha = script.get("examples_sha256") if layout != 1 else None
    if examples_sha is not None and not re.fullmatch(
        r"[0-9a-f]{64}", str(examples_sha)
    ):
        fields.fail(f"field 'script.examples_sha256' is not a sha256: {examples_sha!r}")
    return GpuRecord(
        path=path,
        date=fields.text(data, "date", ""),
        smoke=bool(fields.typed(data, "smoke", "", bool)),
        device_kind=fields.text(device, "kind", "device."),
        platform=fields.text(device, "platform", "device."),
        device_count=int(fields.typed(device, "count", "device.", int)),
        driver_version=driver,
        python=fields.text(software, "python", "software."),
        jax=fields.text(software, "jax", "software."),
        jaxlib=fields.text(software, "jaxlib", "software."),
        plugins={str(k): str(v) for k, v in plugins.items()},
        script_sha256=sha,
        command=fields.text(script, "command", "script."),
        measurements={
            name: _measurement(fields, name, value)
            for name, value in measurements.items()
        },
        format=int(layout),
        files=files,
        commit=commit,
        uncommitted=uncommitted,
        examples_sha256=None if examples_sha is None else str(examples_sha),
    )


def record_files(folder: Path) -> list[Path]:
    """The record files in ``folder`` (none if it does not exist)."""
    return sorted(folder.glob("*.json")) if folder.is_dir() else []


def load_records(folder: Path) -> list[GpuRecord]:
    """Every record in ``folder``, newest first (by date, then file name).

    Raises:
        RecordError: For the first malformed record, a ``--smoke`` one (tiny
            sizes), or one made on a device other than a GPU: none of them
            is a GPU figure for the site.
    """
    records = [load_record(path) for path in record_files(folder)]
    for found in records:
        if found.smoke:
            msg = (
                f"{found.path}: a --smoke record (tiny sizes) is not a figure "
                f"for the site; delete it and run {SCRIPT} without --smoke"
            )
            raise RecordError(msg)
        if found.platform != "gpu":
            msg = (
                f"{found.path}: recorded on {found.platform} "
                f"({found.device_kind}), not a GPU: its times cannot fill a GPU "
                f"table; delete it and run {SCRIPT} on a GPU"
            )
            raise RecordError(msg)
    return sorted(records, key=lambda r: (r.date, r.path.name), reverse=True)


def newest_holding(
    records: Sequence[GpuRecord], name: str
) -> tuple[GpuRecord, Measurement] | None:
    """The newest record that holds measurement ``name``, and that measurement."""
    for found in sorted(records, key=lambda r: (r.date, r.path.name), reverse=True):
        if name in found.measurements:
            return found, found.measurements[name]
    return None
