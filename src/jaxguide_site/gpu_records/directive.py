"""The ``gpu-record`` directive: a recorded table, or a note that none exists.

The text is in the page's language: the messages of ``TEXT``, translated by
the ``jaxguide`` catalogs (:mod:`..interface_text.messages`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from docutils import nodes
from sphinx.util.docutils import SphinxDirective

from ..interface_text.dates import written_date
from ..interface_text.messages import N_, translations
from .records import (
    NAME,
    SCRIPT,
    SEEN,
    FactValue,
    GpuRecord,
    Measurement,
    RecordError,
    TimingTable,
    load_records,
    newest_holding,
    record_files,
)

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.config import Config
    from sphinx.environment import BuildEnvironment

TEXT = {  # the messages; their translations are in the jaxguide catalogs
    "recorded": N_("Recorded on a GPU, not executed by this build"),
    "by": N_("by {script} on {date}"),
    "device": N_("device"),
    "software": N_("JAX {jax} (jaxlib {jaxlib}), Python {python}"),
    "driver": N_("driver {driver}"),
    "no driver": N_("driver not recorded"),
    "file": N_("record: {file}"),
    "code": N_("code"),
    "median": N_("median"),
    "spread": N_("spread (IQR)"),
    "first call": N_("first call (1 sample)"),
    "runs": N_("rounds × calls"),
    "speed-up": N_("speed-up vs {baseline}"),
    "not blocked": N_("{label} (not blocked)"),
    "value": N_("value"),
    "observation": N_("observation"),
    "yes": N_("yes"),
    "no": N_("no"),
    "none title": N_("GPU record"),
    "none": N_(
        "No GPU record yet. The figures on this page were measured on the CPU that built the site."
    ),
    "how": N_("Running {script} on a GPU records it."),
}

# -- Rendering -----------------------------------------------------------------


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
    # Here, not at the top: jaxguide.timing imports JAX (a second), which
    # every Sphinx run would pay, and only a page with a record needs it.
    from jaxguide.timing import format_duration  # noqa: PLC0415

    baseline = next(row for row in table.rows if row.label == table.baseline)
    headers = [
        text["code"],
        text["median"],
        text["spread"],
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
                _cell(nodes.Text(format_duration(row.iqr))),
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


def _text(language: str) -> dict[str, str]:
    catalog = translations(language)
    return {key: catalog.gettext(message) for key, message in TEXT.items()}


def render_record(
    found: GpuRecord, measurement: Measurement, language: str, date_form: str | None
) -> list[nodes.Node]:
    """The measurement's tables and facts, under a label saying what made them."""
    text = _text(language)
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
        text["by"].format(
            script=SCRIPT, date=written_date(found.date, date_form, language)
        ),
        text["file"].format(file=f"docs/_data/gpu_records/{found.path.name}"),
    ]
    label = nodes.paragraph(classes=["jaxguide-gpu-record-label"])
    label += nodes.strong(text=f"{text['recorded']}: ")
    label += nodes.Text(" · ".join(parts))
    box = nodes.container(classes=["jaxguide-gpu-record"])
    box += label
    box.extend(_timing_table(table, text) for table in measurement.tables)
    if measurement.facts:
        box += _facts_table(measurement.facts, text)
    return [box]


def render_missing(language: str) -> list[nodes.Node]:
    """The admonition that says no record holds the measurement."""
    text = _text(language)
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
        date_form = self.config.html_last_updated_fmt
        return render_record(*found, language, date_form)


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
