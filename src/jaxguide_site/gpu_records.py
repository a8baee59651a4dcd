"""GPU figures from records, with what made them: the ``gpu-record`` directive.

The pages execute on the CPU that builds the site. What they say of a GPU
comes from a record: a JSON file in ``docs/_data/gpu_records/`` that
``examples/gpu_record.py`` writes on a GPU (``<date>-<device>.json``: the
device, driver, JAX and jaxlib, the date, the script's sha256 and command
line, and every measurement's raw times and values). A page names the
measurement before the paragraph that quotes it::

    ```{gpu-record} jit-log-exp
    ```

and the directive shows that measurement from the newest record holding it,
labelled as recorded (not executed by this build) with the device, JAX and
jaxlib, driver and date. Where no record holds it, it says so instead, in an
admonition: "No GPU record yet: the observation below was not recorded by a
script in this repository". Neither case is a warning; a malformed record
is, naming the file and the field, and fails the strict build.

The text is in the page's language, picked by ``language`` from the two
built-in labels below (``LABELS``), not from the ``jaxguide`` gettext
domain: a record's layout and its labels change together, here.
"""

from __future__ import annotations

import json
import math
import re
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, NoReturn

from docutils import nodes
from sphinx.util.docutils import SphinxDirective

from .extension import PARALLEL_SAFE

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.config import Config
    from sphinx.environment import BuildEnvironment
    from sphinx.util.typing import ExtensionMetadata

__all__ = [
    "FORMAT",
    "GpuRecord",
    "Measurement",
    "RecordError",
    "TimingRow",
    "TimingTable",
    "load_record",
    "load_records",
    "newest_holding",
]

FORMAT = 1  # the layout examples/gpu_record.py writes
NAME = re.compile(r"[a-z0-9][a-z0-9-]*")  # a measurement's name
# The records a page's directives saw, as page metadata: Sphinx merges it
# from parallel readers, and a new record re-reads the pages that use them.
SEEN = "jaxguide_gpu_records"
FactValue = str | int | float | bool | list[str]

LABELS: dict[str, dict[str, str]] = {
    "en": {
        "recorded": "Recorded on a GPU, not executed by this build",
        "recorded elsewhere": "Recorded, not executed by this build",
        "by": "by {script} on {date}",
        "device": "device",
        "software": "JAX {jax} (jaxlib {jaxlib}), Python {python}",
        "driver": "driver {driver}",
        "no driver": "driver not recorded",
        "file": "record: {file}",
        "code": "code",
        "median": "median",
        "first call": "first call",
        "runs": "rounds × calls",
        "speed-up": "speed-up vs {baseline}",
        "not blocked": "{label} (not blocked)",
        "value": "value",
        "observation": "observation",
        "yes": "yes",
        "no": "no",
        "none title": "GPU record",
        "none": "No GPU record yet: the observation below was not recorded by "
        "a script in this repository.",
        "how": "Running {script} on a GPU records it.",
    },
    "ko": {
        "recorded": "GPU에서 기록한 결과이며, 이 빌드가 실행한 것이 아닙니다",
        "recorded elsewhere": "기록한 결과이며, 이 빌드가 실행한 것이 아닙니다",
        "by": "{date}에 {script}로 기록",
        "device": "장치",
        "software": "JAX {jax}(jaxlib {jaxlib}), 파이썬 {python}",
        "driver": "드라이버 {driver}",
        "no driver": "드라이버 기록 없음",
        "file": "기록 파일: {file}",
        "code": "코드",
        "median": "중앙값",
        "first call": "첫 호출",
        "runs": "라운드 × 호출",
        "speed-up": "{baseline} 대비 속도 향상",
        "not blocked": "{label} (기다리지 않음)",
        "value": "값",
        "observation": "관찰",
        "yes": "예",
        "no": "아니요",
        "none title": "GPU 기록",
        "none": "아직 GPU 기록이 없습니다: 아래 관찰은 이 저장소의 스크립트로 "
        "기록한 것이 아닙니다.",
        "how": "GPU에서 {script}를 실행하면 기록됩니다.",
    },
}
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
    script_sha256: str
    command: str
    measurements: dict[str, Measurement]


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
    if (found := fields.value(data, "format", "")) != FORMAT:
        fields.fail(f"format {found!r}, this site reads format {FORMAT}")
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
    )


def record_files(folder: Path) -> list[Path]:
    """The record files in ``folder`` (none if it does not exist)."""
    return sorted(folder.glob("*.json")) if folder.is_dir() else []


def load_records(folder: Path) -> list[GpuRecord]:
    """Every record in ``folder``, newest first (by date, then file name).

    Raises:
        RecordError: For the first malformed record, or a ``--smoke`` one:
            tiny sizes, never a figure for the site.
    """
    records = [load_record(path) for path in record_files(folder)]
    for found in records:
        if found.smoke:
            msg = (
                f"{found.path}: a --smoke record (tiny sizes) is not a figure "
                f"for the site; delete it and run {SCRIPT} without --smoke"
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


# -- Rendering -----------------------------------------------------------------


def format_duration(seconds: float) -> str:
    """Three significant digits in s, ms, µs or ns, as jaxguide's tables."""
    rounded = float(f"{seconds:.3g}")
    units = ((1.0, "s"), (1e-3, "ms"), (1e-6, "µs"), (1e-9, "ns"))
    scale, unit = next(((s, u) for s, u in units if rounded >= s), units[-1])
    value = rounded / scale
    digits = 0 if value >= 100 else 1 if value >= 10 else 2
    return f"{value:.{digits}f} {unit}"


def _cell(*children: nodes.Node) -> nodes.entry:
    paragraph = nodes.paragraph()
    paragraph.extend(children)
    return nodes.entry("", paragraph)


def _grid(headers: Sequence[str], rows: Sequence[Sequence[nodes.entry]]) -> nodes.table:
    table = nodes.table(classes=["jaxguide-gpu-record-table"])
    group = nodes.tgroup(cols=len(headers))
    table += group
    group.extend(nodes.colspec(colwidth=1) for _ in headers)
    group += nodes.thead("", nodes.row("", *(_cell(nodes.Text(h)) for h in headers)))
    group += nodes.tbody("", *(nodes.row("", *row) for row in rows))
    return table


def _timing_table(table: TimingTable, text: Mapping[str, str]) -> nodes.Element:
    baseline = next(row for row in table.rows if row.label == table.baseline)
    headers = [
        text["code"],
        text["median"],
        text["first call"],
        text["runs"],
        text["speed-up"].format(baseline=table.baseline),
    ]
    rows = []
    for row in table.rows:
        label = (
            row.label if row.blocked else text["not blocked"].format(label=row.label)
        )
        rows.append(
            [
                _cell(nodes.literal(text=label)),
                _cell(nodes.Text(format_duration(row.median))),
                _cell(nodes.Text(format_duration(row.first_call))),
                _cell(nodes.Text(f"{len(row.times)} × {row.number}")),
                _cell(nodes.Text(f"{baseline.median / row.median:.2f}×")),
            ]
        )
    result = _grid(headers, rows)
    result.insert(0, nodes.title(text=table.title))
    return result


def _fact_value(value: FactValue, text: Mapping[str, str]) -> nodes.Node:
    if isinstance(value, bool):
        return nodes.Text(text["yes"] if value else text["no"])
    if isinstance(value, float):
        return nodes.Text(f"{value:.3g}")
    if isinstance(value, list):
        return nodes.literal(text=", ".join(value))
    if isinstance(value, str) and "\n" in value:  # a program: not highlighted
        return nodes.literal_block(value, value, language="text")
    return nodes.Text(str(value))


def _facts_table(
    facts: Mapping[str, FactValue], text: Mapping[str, str]
) -> nodes.table:
    rows = []
    for key, value in facts.items():
        shown = _fact_value(value, text)
        cell = (
            nodes.entry("", shown)
            if isinstance(shown, nodes.literal_block)
            else _cell(shown)
        )
        rows.append([_cell(nodes.Text(key)), cell])
    return _grid([text["observation"], text["value"]], rows)


def render_record(
    found: GpuRecord, measurement: Measurement, language: str
) -> list[nodes.Node]:
    """The measurement's tables and facts, under a label saying what made them."""
    text = LABELS["ko" if language == "ko" else "en"]
    count = f"{found.device_count} × " if found.device_count > 1 else ""
    driver = (
        text["driver"].format(driver=found.driver_version)
        if found.driver_version
        else text["no driver"]
    )
    parts = [
        f"{text['device']}: {count}{found.device_kind} ({found.platform})",
        text["software"].format(
            jax=found.jax, jaxlib=found.jaxlib, python=found.python
        ),
        driver,
        text["by"].format(script=SCRIPT, date=found.date),
        text["file"].format(file=f"docs/_data/gpu_records/{found.path.name}"),
    ]
    label = nodes.paragraph(classes=["jaxguide-gpu-record-label"])
    recorded = text["recorded" if found.platform == "gpu" else "recorded elsewhere"]
    label += nodes.strong(text=f"{recorded}: ")
    label += nodes.Text(" · ".join(parts))
    box = nodes.container(classes=["jaxguide-gpu-record"])
    box += label
    box.extend(_timing_table(table, text) for table in measurement.tables)
    if measurement.facts:
        box += _facts_table(measurement.facts, text)
    return [box]


def render_missing(language: str) -> list[nodes.Node]:
    """The admonition that says no record holds the measurement."""
    text = LABELS["ko" if language == "ko" else "en"]
    how = nodes.paragraph()
    before, after = text["how"].split("{script}")
    how += [
        nodes.Text(before),
        nodes.literal(text=f"python {SCRIPT}"),
        nodes.Text(after),
    ]
    admonition = nodes.admonition(
        "",
        nodes.title(text=text["none title"]),
        nodes.paragraph(text=text["none"]),
        how,
        classes=["jaxguide-gpu-record-missing", "attention"],
    )
    return [admonition]


def _default_folder(app: Sphinx, config: Config) -> None:
    """``jaxguide_gpu_records`` unset: ``_data/gpu_records`` beside conf.py."""
    if not config.jaxguide_gpu_records:
        config.jaxguide_gpu_records = str(Path(app.confdir) / "_data" / "gpu_records")


def _listing(folder: Path) -> str:
    return ",".join(path.name for path in record_files(folder))


class GpuRecordDirective(SphinxDirective):
    """``{gpu-record} NAME``: the newest record of the measurement, or a note
    that none holds it."""

    required_arguments = 1
    has_content = False
    option_spec: ClassVar[dict[str, Any]] = {}

    def run(self) -> list[nodes.Node]:
        name = self.arguments[0]
        if not NAME.fullmatch(name):
            message = f"gpu-record: {name!r} is not a measurement's name"
            return [self.state.document.reporter.error(message, line=self.lineno)]
        folder = Path(self.config.jaxguide_gpu_records)
        self.env.metadata[self.env.docname][SEEN] = _listing(folder)
        for path in record_files(folder):
            self.env.note_dependency(str(path))
        try:
            records = load_records(folder)
        except RecordError as error:
            return [self.state.document.reporter.error(str(error), line=self.lineno)]
        language = str(self.config.language)
        found = newest_holding(records, name)
        if found is None:
            return render_missing(language)
        return render_record(*found, language)


def _new_records(
    app: Sphinx,
    env: BuildEnvironment,
    _added: set[str],
    _changed: set[str],
    _removed: set[str],
) -> list[str]:
    """The pages whose directives saw another set of record files."""
    listing = _listing(Path(app.config.jaxguide_gpu_records))
    return [
        docname
        for docname, meta in env.metadata.items()
        if SEEN in meta and meta[SEEN] != listing and docname in env.found_docs
    ]


def setup(app: Sphinx) -> ExtensionMetadata:
    app.add_config_value("jaxguide_gpu_records", "", "env", str)
    app.add_directive("gpu-record", GpuRecordDirective)
    app.connect("config-inited", _default_folder)
    app.connect("env-get-outdated", _new_records)
    return PARALLEL_SAFE
