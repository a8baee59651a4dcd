"""GPU figures come from records that examples/gpu_record.py writes, shown by
the ``gpu-record`` directive (src/jaxguide_site/gpu_records.py).

A page that names a GPU does so right after a ``gpu-record`` directive, and
the newest record was made by the script as it is now: a changed script
needs a new record (on a GPU: ``python examples/gpu_record.py``). The
loader names the file and the field of a malformed record; the directive
renders a record in the page's language, or says that none holds the
measurement, without a warning; and the script's smoke run writes a record
the loader reads.
"""

from __future__ import annotations

import ast
import copy
import hashlib
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from helpers import (
    DOCS,
    GUIDE_PAGES,
    NOTEBOOK_FRONT_MATTER,
    PROJECT_DOCS,
    REPO,
    build_project,
)
from jaxguide_site.gpu_records.records import (
    RecordError,
    load_record,
    load_records,
    newest_holding,
)
from jaxguide_site.languages import LANGUAGES
from jaxguide_site.translation.parity import read_source

RECORDS = DOCS / "_data" / "gpu_records"
SCRIPT = REPO / "examples" / "gpu_record.py"
# A GPU or TPU named in the prose: a figure from such a device (Korean puts
# particles right after it: H100에서).
GPU_MODEL = re.compile(r"(?<![\w-])(?:[ABHV]100|[GH]?[BH]200)(?![A-Za-z0-9])|\bTPU v")
# A block that links JAX's documentation quotes it, not a measurement
# (sharp-bits on matmul precision names the GPUs lax.Precision's page names).
CITES_JAX_DOCS = "https://docs.jax.dev/"
DIRECTIVE = re.compile(r"^[ \t]*(?:`{3,}|:{3,})\{gpu-record\}[ \t]+(?P<name>\S+)")


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def script_measurements() -> set[str]:
    """The names in the script's MEASUREMENTS, read without importing JAX."""
    for node in ast.parse(SCRIPT.read_text(encoding="utf-8")).body:
        if (
            isinstance(node, ast.AnnAssign)
            and isinstance(node.target, ast.Name)
            and node.target.id == "MEASUREMENTS"
            and isinstance(node.value, ast.Dict)
        ):
            return {ast.literal_eval(key) for key in node.value.keys if key}
    pytest.fail(f"no MEASUREMENTS dict in {SCRIPT}")


def unrecorded_mentions(page: Path) -> list[str]:
    """Each GPU named in the page's prose whose block (paragraph, admonition)
    does not come right after a gpu-record directive."""
    lines = page.read_text(encoding="utf-8").splitlines()
    problems = []
    for number, line in read_source(page).prose:
        if not (found := GPU_MODEL.search(line)):
            continue
        start = stop = number - 1  # the block holding it
        while start > 0 and lines[start - 1].strip():
            start -= 1
        while stop + 1 < len(lines) and lines[stop + 1].strip():
            stop += 1
        if any(CITES_JAX_DOCS in text for text in lines[start : stop + 1]):
            continue
        end = start - 1  # the last line of the block before
        while end >= 0 and not lines[end].strip():
            end -= 1
        before = end
        while before > 0 and lines[before - 1].strip():
            before -= 1
        if end < 0 or not DIRECTIVE.match(lines[before]):
            shown = page.relative_to(REPO) if page.is_relative_to(REPO) else page
            problems.append(f"{shown}:{number}: {found[0]}")
    return problems


def pages() -> list[Path]:
    return [
        GUIDE_PAGES.source(lang, name)
        for lang in LANGUAGES
        for name in GUIDE_PAGES.written[lang]
    ]


def test_gpu_figures_come_from_a_record_of_the_script_as_it_is() -> None:
    """A page naming a GPU puts a gpu-record directive right before it, each
    directive names a measurement the script makes, and the newest record
    was made by the script as it is now."""
    problems = [problem for page in pages() for problem in unrecorded_mentions(page)]
    assert problems == [], (
        "a page quotes a GPU figure that no record holds: put a "
        "```{gpu-record} <measurement>``` directive right before it\n"
        + "\n".join(problems)
    )
    known = script_measurements()
    named = {
        f"{page.relative_to(DOCS.parent)}: {match['name']}"
        for page in pages()
        for line in page.read_text(encoding="utf-8").splitlines()
        if (match := DIRECTIVE.match(line)) and match["name"] not in known
    }
    assert named == set(), f"measurements {SCRIPT.name} does not make: {named}"
    records = load_records(RECORDS)
    if records:
        newest = records[0]
        assert newest.script_sha256 == sha256(SCRIPT), (
            f"{SCRIPT.relative_to(REPO)} changed since the newest record, "
            f"{newest.path.name}, was made: run it on a GPU "
            "(python examples/gpu_record.py) and commit the new record"
        )


def test_a_page_naming_a_gpu_without_a_directive_is_found(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        "# Page\n\n```{gpu-record} jit-selu\n```\n\nOn an NVIDIA H100, fast.\n\n"
        "Also on an A100, without a record.\n",
        encoding="utf-8",
    )
    assert [p.split(": ")[-1] for p in unrecorded_mentions(page)] == ["A100"]


# -- The loader ----------------------------------------------------------------

SHA = "0" * 64


def sample_record(
    date: str = "2026-12-01T10:00:00Z",
    measurements: tuple[str, ...] = ("jit-selu", "jit-log-exp"),
    device: str = "NVIDIA H100 80GB HBM3",
) -> dict[str, Any]:
    """A record as examples/gpu_record.py writes it, with made-up numbers."""
    tables = {
        "jit-selu": {
            "title": "SELU on 10,000,000 float32 elements",
            "page": "jit",
            "tables": [
                {
                    "title": "SELU on 10,000,000 float32 elements",
                    "baseline": "selu (eager)",
                    "rows": [
                        {
                            "label": "selu (eager)",
                            "first_call": 0.25,
                            "times": [0.004, 0.002, 0.003],
                            "number": 10,
                            "blocked": True,
                        },
                        {
                            "label": "selu_jit",
                            "first_call": 0.05,
                            "times": [0.0005, 0.0006, 0.0004],
                            "number": 100,
                            "blocked": True,
                        },
                    ],
                }
            ],
            "facts": {},
        },
        "jit-log-exp": {
            "title": "log(exp(x)) under jax.jit",
            "page": "jit",
            "tables": [],
            "facts": {
                "exp kept in the compiled program": True,
                "jitted log(exp(x))": ["1.0", "inf"],
                "optimized program": "%x = f32[2] parameter(0)\nROOT %e = exp(%x)",
            },
        },
    }
    return {
        "format": 1,
        "smoke": False,
        "date": date,
        "device": {
            "kind": device,
            "platform": "gpu",
            "count": 1,
            "driver_version": "580.95.05",
        },
        "host": {"cpu_model": "a CPU", "cpu_cores": 16},
        "software": {
            "python": "3.12.3",
            "jax": "0.11.2",
            "jaxlib": "0.11.2",
            "numpy": "2.4.6",
            "plugins": {"jax-cuda12-plugin": "0.11.2"},
        },
        "script": {
            "path": "examples/gpu_record.py",
            "sha256": SHA,
            "command": "python examples/gpu_record.py",
        },
        "measurements": {name: tables[name] for name in measurements},
    }


def write(folder: Path, name: str, data: dict[str, Any]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_a_sample_record_loads(tmp_path: Path) -> None:
    record = load_record(write(tmp_path, "ok.json", sample_record()))
    assert record.device_kind == "NVIDIA H100 80GB HBM3"
    selu = record.measurements["jit-selu"].tables[0]
    assert [row.label for row in selu.rows] == ["selu (eager)", "selu_jit"]
    assert selu.rows[0].median == 0.003


def remove(path: str) -> Any:
    def change(data: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        for key in parents:
            data = data[key]
        del data[last]

    return change


def setter(path: str, value: object) -> Any:
    def change(data: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        target: Any = data
        for key in parents:
            target = target[int(key)] if key.isdigit() else target[key]
        target[last] = value

    return change


SELU_TABLE = "measurements.jit-selu.tables.0"
MALFORMED = [
    (remove("device.kind"), "missing field 'device.kind'"),
    (remove("script.sha256"), "missing field 'script.sha256'"),
    (remove("date"), "missing field 'date'"),
    (setter("format", 2), "format 2, this site reads format 1"),
    (setter("device.count", "one"), "field 'device.count' must be an integer"),
    (setter("script.sha256", "abc"), "field 'script.sha256' is not a sha256"),
    (setter("device.driver_version", 580), "'device.driver_version' must be text"),
    (
        setter(f"{SELU_TABLE}.baseline", "numpy"),
        "measurements.jit-selu.tables[0].baseline 'numpy' is not a row's label",
    ),
    (
        lambda data: data["measurements"]["jit-selu"]["tables"][0]["rows"][1].update(
            times=[0.1, "fast"]
        ),
        "field 'measurements.jit-selu.tables[0].rows[1].times[1]' must be a number",
    ),
    (
        lambda data: data["measurements"]["jit-selu"]["tables"][0]["rows"][0].pop(
            "first_call"
        ),
        "missing field 'measurements.jit-selu.tables[0].rows[0].first_call'",
    ),
    (
        lambda data: data["measurements"]["jit-log-exp"]["facts"].update(bad={"a": 1}),
        "'measurements.jit-log-exp.facts.bad' must be text, a number",
    ),
]


@pytest.mark.parametrize(("change", "message"), MALFORMED)
def test_a_malformed_record_names_its_file_and_field(
    tmp_path: Path, change: Any, message: str
) -> None:
    data = copy.deepcopy(sample_record())
    change(data)
    path = write(tmp_path, "2026-12-01-nvidia-h100.json", data)
    with pytest.raises(RecordError) as raised:
        load_record(path)
    assert str(raised.value).startswith(f"{path}: ")
    assert message in str(raised.value)


def test_not_json_and_smoke_records_are_refused(tmp_path: Path) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": 1,', encoding="utf-8")
    with pytest.raises(
        RecordError, match=rf"^{re.escape(str(broken))}: not a readable"
    ):
        load_record(broken)
    broken.unlink()
    smoke = write(tmp_path, "smoke.json", {**sample_record(), "smoke": True})
    with pytest.raises(RecordError, match="a --smoke record"):
        load_records(tmp_path)
    smoke.unlink()
    assert load_records(tmp_path) == []
    assert load_records(tmp_path / "absent") == []


def test_the_newest_record_holding_a_measurement_is_chosen(tmp_path: Path) -> None:
    write(tmp_path, "a.json", sample_record("2026-12-01T10:00:00Z", device="old"))
    write(tmp_path, "b.json", sample_record("2026-12-03T10:00:00Z", device="new"))
    write(
        tmp_path,
        "c.json",
        sample_record("2026-12-05T10:00:00Z", ("jit-log-exp",), device="newest"),
    )
    records = load_records(tmp_path)
    assert [record.device_kind for record in records] == ["newest", "new", "old"]
    found = newest_holding(records, "jit-selu")
    assert found is not None
    assert found[0].device_kind == "new"
    assert newest_holding(records, "control-flow-unroll") is None


# -- The directive -------------------------------------------------------------

PAGE = (
    NOTEBOOK_FRONT_MATTER
    + """
# GPU

```{gpu-record} jit-selu
```

On an NVIDIA H100, the jitted SELU was faster.

```{gpu-record} jit-log-exp
```

It kept `exp` and `log`.

```{gpu-record} control-flow-unroll
```

An observation no record holds.
"""
)
RECORDED = {
    "en": "Recorded on a GPU, not executed by this build",
    "ko": "GPU에서 기록한 결과이며, 이 빌드가 실행한 것이 아닙니다",
}
MISSING = {
    "en": "No GPU record yet: the observation below was not recorded by a script "
    "in this repository",
    "ko": "아직 GPU 기록이 없습니다. 아래 관찰은 이 저장소의 스크립트로 기록한 것이 "
    "아닙니다",
}


def build(tmp_path: Path, lang: str, records: dict[str, dict[str, Any]]) -> str:
    """Build PAGE with ``records`` in _data/gpu_records beside conf.py; its
    HTML body."""
    srcdir = tmp_path / "src"
    srcdir.mkdir()
    (srcdir / "index.md").write_text(PAGE, encoding="utf-8")
    for name, data in records.items():
        write(srcdir / "_data" / "gpu_records", name, data)
    result = build_project(
        srcdir, tmp_path / "out", lang=lang, cache=tmp_path / "cache", execute=False
    )
    assert result.returncode == 0, result.stderr
    assert result.stderr == "", result.stderr  # no warning at all
    html = (tmp_path / "out" / "html" / "index.html").read_text(encoding="utf-8")
    body = html.split("</head>", 1)[1]  # not the description in <meta>
    return re.sub(r"\s+", " ", body)


RECORDED_ON = {"en": "on December 1, 2026", "ko": "2026년 12월 1일에"}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_directive_renders_the_record_or_says_there_is_none(
    tmp_path: Path, lang: str
) -> None:
    records = {
        "2026-12-01-nvidia-h100-80gb-hbm3.json": sample_record(),
        "2026-11-01-nvidia-a100.json": sample_record(
            "2026-11-01T10:00:00Z", device="NVIDIA A100-SXM4-40GB"
        ),
    }
    html = build(tmp_path, lang, records)
    assert html.count(RECORDED[lang]) == 2  # jit-selu and jit-log-exp
    assert "NVIDIA H100 80GB HBM3 (gpu)" in html  # the newer record
    assert "A100" not in html
    assert "0.11.2" in html
    assert "580.95.05" in html
    assert RECORDED_ON[lang] in html  # the day, as the language writes a date
    assert "2026-12-01-nvidia-h100-80gb-hbm3.json" in html
    # the table: medians 3.00 ms and 500 µs, 6.00× faster, rounds × calls
    for shown in ("selu_jit", "3.00 ms", "500 µs", "6.00×", "3 × 100"):
        assert shown in html, shown
    assert "f32[2] parameter(0)" in html  # the fact holding a program
    assert html.count(MISSING[lang]) == 1  # control-flow-unroll
    assert '<span class="pre">examples/gpu_record.py</span>' in html  # how to


@pytest.mark.parametrize("lang", LANGUAGES)
def test_without_records_every_directive_says_so(tmp_path: Path, lang: str) -> None:
    html = build(tmp_path, lang, {})
    assert html.count(MISSING[lang]) == 3
    assert RECORDED[lang] not in html


def test_a_new_record_rereads_the_pages_that_show_records(tmp_path: Path) -> None:
    """An incremental build shows a record added since the last one, and
    reads no page again when nothing changed."""
    srcdir = tmp_path / "src"
    srcdir.mkdir()
    (srcdir / "index.md").write_text(PAGE, encoding="utf-8")
    index = tmp_path / "out" / "html" / "index.html"

    def rebuild() -> tuple[str, str]:
        result = build_project(
            srcdir, tmp_path / "out", lang="en", cache=tmp_path / "cache", execute=False
        )
        assert result.returncode == 0, result.stderr
        return result.stdout, index.read_text(encoding="utf-8").split("</head>")[1]

    _, html = rebuild()
    assert html.count(MISSING["en"]) == 3
    write(srcdir / "_data" / "gpu_records", "new.json", sample_record())
    out, html = rebuild()
    assert "0 added, 1 changed, 0 removed" in out
    assert html.count(RECORDED["en"]) == 2
    assert html.count(MISSING["en"]) == 1
    out, _ = rebuild()
    assert "0 added, 0 changed, 0 removed" in out


def test_a_malformed_record_fails_the_build_naming_it(tmp_path: Path) -> None:
    srcdir = tmp_path / "src"
    srcdir.mkdir()
    (srcdir / "index.md").write_text(PAGE, encoding="utf-8")
    data = sample_record()
    del data["device"]["kind"]
    write(srcdir / "_data" / "gpu_records", "bad.json", data)
    result = build_project(
        srcdir, tmp_path / "out", lang="en", cache=tmp_path / "cache", execute=False
    )
    assert result.returncode != 0
    assert "bad.json: missing field 'device.kind'" in result.stderr


# -- The script ----------------------------------------------------------------


def run_script(*args: str) -> subprocess.CompletedProcess[str]:
    """The script as a reader runs it, on the CPU."""
    env = {**os.environ, "JAX_PLATFORMS": "cpu", "PYTHONIOENCODING": "utf-8"}
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args],
        capture_output=True,
        encoding="utf-8",
        env=env,
        timeout=300,
        check=False,
    )


def test_a_full_record_on_the_cpu_is_refused_with_the_next_step() -> None:
    result = run_script("--only", "jit-log-exp")
    assert result.returncode == 2, result.stderr
    assert "JAX's backend is cpu, not gpu" in result.stderr
    assert "--allow-cpu" in result.stderr
    assert "CUDA" in result.stderr


def test_a_smoke_record_is_never_written_into_the_site() -> None:
    site_records = PROJECT_DOCS / "_data" / "gpu_records"  # the script's, not a copy's
    result = run_script("--smoke", "--out", str(site_records))
    assert result.returncode == 2
    assert "--smoke records tiny sizes" in result.stderr


@pytest.mark.slow
def test_smoke_run_on_the_cpu_writes_a_record_the_site_reads(tmp_path: Path) -> None:
    result = run_script("--smoke", "--allow-cpu", "--out", str(tmp_path))
    assert result.returncode == 0, result.stderr[-4000:]
    (path,) = tmp_path.glob("*.json")
    assert f"record written to {path}" in result.stdout
    record = load_record(path)
    assert record.smoke
    assert record.platform == "cpu"
    assert record.device_kind in path.name
    assert record.script_sha256 == sha256(SCRIPT)
    assert record.command.startswith("python examples/gpu_record.py --smoke")
    assert set(record.measurements) == script_measurements()
    for measurement in record.measurements.values():
        for table in measurement.tables:
            for row in table.rows:
                assert len(row.times) >= 6, (measurement.name, row.label)
    facts = record.measurements["jit-log-exp"].facts
    assert isinstance(facts["exp kept in the compiled program"], bool)
    precision = record.measurements["matmul-precision"].facts
    highest = precision['max relative error, float32, precision="highest"']
    assert isinstance(highest, float)
    assert 0 < highest < 1e-5  # float32 rounding, against float64
