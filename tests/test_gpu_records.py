"""GPU figures come from records that examples/gpu_record.py writes, shown by
the ``gpu-record`` directive (src/jaxguide_site/gpu_records/).

No page's prose states a GPU observation: a GPU is named only where a block
quotes JAX's documentation, and figures come from a ``gpu-record``
directive. The newest record was made by the files as they are now: a
change to the script, benchmark.py, _cli.py or the jaxguide package needs a
new record (on a GPU: ``python examples/gpu_record.py``). The loader names
the file and the field of a malformed record, and refuses a record made on
anything but a GPU; the directive renders a record in the page's language,
or says that none holds the measurement, without a warning; and the
script's smoke run writes a record the loader reads.
"""

from __future__ import annotations

import ast
import copy
import hashlib
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from docutils import nodes

from helpers import (
    DOCS,
    GUIDE_PAGES,
    NOTEBOOK_FRONT_MATTER,
    PROJECT_DOCS,
    REPO,
    build_project,
)
from jaxguide_site.gpu_records.directive import _text, _timing_table
from jaxguide_site.gpu_records.records import (
    FORMAT,
    RecordError,
    TimingRow,
    TimingTable,
    files_sha256,
    load_record,
    load_records,
    newest_holding,
)
from jaxguide_site.languages import LANGUAGES
from jaxguide_site.translation.parity import read_source

RECORDS = DOCS / "_data" / "gpu_records"
EXAMPLES = REPO / "examples"
SCRIPT = EXAMPLES / "gpu_record.py"
# A GPU or TPU named in the prose: a figure from such a device (Korean puts
# particles right after it: H100에서).
GPU_MODEL = re.compile(r"(?<![\w-])(?:[ABHV]100|[GH]?[BH]200)(?![A-Za-z0-9])|\bTPU v")
# A block that links JAX's documentation quotes it, not a measurement
# (sharp-bits on matmul precision names the GPUs lax.Precision's page names);
# one that links a maker's specifications cites published figures, as data
# (performance's peaks).
CITES_DOCS = (
    "https://docs.jax.dev/",
    "https://www.nvidia.com/",
    "https://cloud.google.com/tpu/docs/",
)
# What an observation says beside the device: that it was seen, and when.
OBSERVATION = re.compile(
    r"[Oo]bserved|관찰|\b\d{4}-\d\d-\d\d\b|\d{4}년"
    r"|\b(?:January|February|March|April|May|June|July|August|September"
    r"|October|November|December) (?:\d{1,2}, )?\d{4}\b"
)
DIRECTIVE = re.compile(r"^[ \t]*(?:`{3,}|:{3,})\{gpu-record\}[ \t]+(?P<name>\S+)")


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def executed_files() -> tuple[str, ...]:
    """The repository's files a run of the script executes, in order."""
    package = sorted(p.name for p in (REPO / "src" / "jaxguide").glob("*.py"))
    return tuple(
        sorted(
            [
                "examples/_cli.py",
                "examples/benchmark.py",
                "examples/gpu_record.py",
                *(f"src/jaxguide/{name}" for name in package),
            ]
        )
    )


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


def unbacked_gpu_mentions(page: Path) -> list[str]:
    """Each GPU named in the page's prose, except in a block (paragraph,
    admonition) that quotes JAX's documentation or a maker's published
    specifications and states no observation
    (observed, 관찰, a date). A gpu-record directive before the block does
    not excuse it: the directive shows a record, the prose after it does not."""
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
        block = "\n".join(lines[start : stop + 1])
        if any(site in block for site in CITES_DOCS) and not OBSERVATION.search(block):
            continue
        shown = page.relative_to(REPO) if page.is_relative_to(REPO) else page
        problems.append(f"{shown}:{number}: {found[0]}")
    return problems


def pages() -> list[Path]:
    return [
        GUIDE_PAGES.source(lang, name)
        for lang in LANGUAGES
        for name in GUIDE_PAGES.written[lang]
    ]


def test_gpu_figures_come_from_a_record_of_the_files_as_they_are() -> None:
    """No page's prose states a GPU observation, each directive names a
    measurement the script makes, and the newest record was made by the
    files a run executes as they are now."""
    problems = [problem for page in pages() for problem in unbacked_gpu_mentions(page)]
    assert problems == [], (
        "a page names a GPU outside a quotation of JAX's documentation: a GPU "
        "figure must come from a record, shown by a ```{gpu-record} "
        "<measurement>``` directive, not from the prose\n" + "\n".join(problems)
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
        again = (
            "run it on a GPU (python examples/gpu_record.py) and commit the new record"
        )
        # The measurements' definitions must be the record's; the helpers that
        # time them (src/jaxguide) are provenance: holding the record to them
        # would fail every helper edit until a GPU is at hand again.
        examples = [name for name in newest.files if name.startswith("examples/")]
        expected = [name for name in executed_files() if name.startswith("examples/")]
        assert examples == expected, (
            f"the newest record, {newest.path.name}, does not cover the examples "
            f"a run executes now ({', '.join(expected)}): {again}"
        )
        assert newest.examples_sha256 == files_sha256(REPO, examples), (
            f"{', '.join(examples)}: changed since the newest record, "
            f"{newest.path.name}, was made: {again}"
        )


def test_a_page_stating_a_gpu_observation_is_found(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        "# Page\n\n```{gpu-record} jit-selu\n```\n\n"
        "Observed on an NVIDIA H100 on 2025-05-01: 3.2 ms.\n\n"
        "Also on an A100, without a record.\n\n"
        "[JAX's page](https://docs.jax.dev/en/latest/x.html) names the V100.\n\n"
        "[JAX's page](https://docs.jax.dev/en/latest/x.html) names the B200;\n"
        "we observed it there too.\n\n"
        "2025년 5월에 H200에서 관찰한 결과입니다.\n",
        encoding="utf-8",
    )
    found = [p.split(": ")[-1] for p in unbacked_gpu_mentions(page)]
    assert found == ["H100", "A100", "B200", "H200"]


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
                    "interleaved": True,
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
        "format": 2,
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
            "xla_flags": "",
        },
        "script": {
            "path": "examples/gpu_record.py",
            "files": ["examples/_cli.py", "examples/gpu_record.py"],
            "sha256": SHA,
            "commit": "f" * 40,
            "uncommitted_changes": False,
            "command": "python examples/gpu_record.py",
        },
        "conditions": {
            moment: {
                "load_average": [0.5, 0.4, 0.3],
                "gpus": [{"index": "0", "clocks.sm": "1980 MHz"}],
            }
            for moment in ("before", "after")
        },
        "measurements": {name: tables[name] for name in measurements},
    }


def format_1(data: dict[str, Any]) -> dict[str, Any]:
    """``data`` as format 1 wrote it: the script's sha256 alone, no files,
    commit, conditions or XLA_FLAGS."""
    old = copy.deepcopy(data)
    old["format"] = 1
    for key in ("files", "commit", "uncommitted_changes"):
        del old["script"][key]
    del old["conditions"]
    del old["software"]["xla_flags"]
    return old


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
    assert (record.format, record.commit, record.uncommitted) == (2, "f" * 40, False)
    assert record.files == ("examples/_cli.py", "examples/gpu_record.py")


def test_a_format_1_record_still_loads(tmp_path: Path) -> None:
    record = load_record(write(tmp_path, "old.json", format_1(sample_record())))
    assert record.format == 1
    assert record.files == ("examples/gpu_record.py",)  # what its sha256 covers
    assert (record.commit, record.uncommitted) == (None, None)
    assert record.measurements["jit-selu"].tables[0].rows[0].median == 0.003


def test_files_sha256_covers_each_path_and_its_bytes(tmp_path: Path) -> None:
    """Format 2's sha256: moving a byte from one file to the next, or
    renaming one, changes it."""
    (tmp_path / "a").write_bytes(b"xy")
    (tmp_path / "b").write_bytes(b"z")
    (tmp_path / "c").write_bytes(b"z")
    first = files_sha256(tmp_path, ["a", "b"])
    assert first == files_sha256(tmp_path, ["a", "b"])
    (tmp_path / "a").write_bytes(b"x")
    (tmp_path / "b").write_bytes(b"yz")
    assert files_sha256(tmp_path, ["a", "b"]) != first
    assert files_sha256(tmp_path, ["a", "b"]) != files_sha256(tmp_path, ["a", "c"])
    assert files_sha256(tmp_path, []) == hashlib.sha256().hexdigest()


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
    (setter("format", 3), "format 3, this site reads formats 1 and 2"),
    (setter("format", True), "format True, this site reads formats 1 and 2"),
    (remove("script.files"), "missing field 'script.files'"),
    (setter("script.files", []), "'script.files' must be a list of the files"),
    (setter("script.commit", 7), "field 'script.commit' must be text or null"),
    (
        setter("script.uncommitted_changes", "no"),
        "'script.uncommitted_changes' must be true, false or null",
    ),
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


@pytest.mark.parametrize("platform", ["cpu", "tpu"])
def test_a_record_made_elsewhere_than_a_gpu_is_refused(
    tmp_path: Path, platform: str
) -> None:
    """--allow-cpu's record never fills a GPU table, even copied into the folder."""
    data = sample_record()
    data["device"] |= {"platform": platform, "kind": "cpu"}
    write(tmp_path, "2026-12-01-nvidia-h100.json", sample_record())
    elsewhere = write(tmp_path, "2026-12-02-cpu.json", data)
    with pytest.raises(RecordError) as raised:
        load_records(tmp_path)
    assert str(raised.value).startswith(f"{elsewhere}: recorded on {platform} (cpu)")
    assert "not a GPU" in str(raised.value)
    assert "examples/gpu_record.py on a GPU" in str(raised.value)


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
    "en": "No GPU record yet. The figures on this page were measured on the CPU "
    "that built the site.",
    "ko": "아직 GPU 기록이 없습니다. 이 페이지의 수치는 사이트를 빌드한 CPU에서 "
    "측정한 것입니다.",
}
SPREAD = {"en": "spread (IQR)", "ko": "사분위 범위(IQR)"}
FIRST_CALL = {"en": "first call (1 sample)", "ko": "첫 호출(1회 측정)"}


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
    # the table: medians 3.00 ms and 500 µs, interquartile ranges 1.00 ms and
    # 100 µs, 6.00× faster, rounds × calls
    for shown in ("selu_jit", "3.00 ms", "500 µs", "1.00 ms", "100 µs", "6.00×"):
        assert shown in html, shown
    assert "3 × 100" in html
    assert SPREAD[lang] in html
    assert FIRST_CALL[lang] in html
    assert "f32[2] parameter(0)" in html  # the fact holding a program
    assert html.count(MISSING[lang]) == 1  # control-flow-unroll
    assert '<span class="pre">examples/gpu_record.py</span>' in html  # how to


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_recorded_table_shows_each_rows_spread(lang: str) -> None:
    """The columns: code, median, spread (IQR), first call (1 sample),
    rounds × calls, speed-up; the spread is the rounds' interquartile range."""
    rows = (
        TimingRow("a", 0.5, (0.004, 0.002, 0.003, 0.010), 10, blocked=True),
        TimingRow("b", 0.1, (0.001,), 100, blocked=True),
    )
    table = _timing_table(TimingTable("t", "a", rows), _text(lang))
    header, *body = [
        [entry.astext() for entry in row.children] for row in table.findall(nodes.row)
    ]
    assert header[1:4] == [_text(lang)["median"], SPREAD[lang], FIRST_CALL[lang]]
    # quartiles of 2, 3, 4, 10 ms (inclusive): 2.75 and 5.5 ms
    assert [row[2] for row in body] == ["2.75 ms", "0.00 ns"]
    assert body[0][1] == "3.50 ms"


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


def site_listing() -> list[str]:
    folder = PROJECT_DOCS / "_data" / "gpu_records"  # the script's, not a copy's
    return sorted(p.name for p in folder.iterdir()) if folder.is_dir() else []


def test_a_cpu_record_is_never_written_into_the_site() -> None:
    """--allow-cpu records, but not into the site's folder: asked for, it is
    refused with the next step; by default it goes to a temporary folder."""
    site_records = PROJECT_DOCS / "_data" / "gpu_records"
    before = site_listing()
    refused = run_script(
        "--allow-cpu", "--only", "jit-log-exp", "--out", str(site_records)
    )
    assert refused.returncode == 2, refused.stderr
    assert "JAX's backend is cpu, not gpu" in refused.stderr
    assert "Leave --out out (a temporary folder)" in refused.stderr
    result = run_script("--allow-cpu", "--only", "jit-log-exp")
    assert result.returncode == 0, result.stderr[-4000:]
    written = Path(re.findall(r"(?m)^record written to (.+)$", result.stdout)[0])
    try:
        assert not written.is_relative_to(site_records)
        assert load_record(written).platform == "cpu"
        assert "git add docs/_data/gpu_records" not in result.stdout
        assert site_listing() == before
    finally:
        shutil.rmtree(written.parent)


@pytest.fixture
def gpu_record(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """examples/gpu_record.py as a module, with the _cli and benchmark it
    finds beside it, leaving the import path alone."""
    module = None
    for name in ("_cli", "benchmark", "gpu_record"):
        spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
        assert spec is not None
        assert spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        monkeypatch.setitem(sys.modules, name, module)
        spec.loader.exec_module(module)
    assert module is not None
    return module


def git_says(*args: str) -> str | None:
    git = shutil.which("git")
    if git is None:
        return None
    done = subprocess.run(
        [git, "-C", str(REPO), *args], capture_output=True, text=True, check=False
    )
    return done.stdout if done.returncode == 0 else None


def test_provenance_covers_every_file_the_run_executes(gpu_record: ModuleType) -> None:
    """The files (the three examples and every module of jaxguide), one
    sha256 over them as the site checks it, git's commit, and whether those
    files differ from it."""
    found = gpu_record.provenance()
    assert tuple(found["files"]) == executed_files()
    assert found["sha256"] == files_sha256(REPO, executed_files())
    assert found["sha256"] != sha256(SCRIPT)
    head = git_says("rev-parse", "HEAD")
    assert found["commit"] == (head.strip() if head else None)
    status = git_says("status", "--porcelain", "--", *executed_files())
    assert found["uncommitted_changes"] == (None if status is None else bool(status))


def fake_nvidia_smi(folder: Path, script: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """An nvidia-smi first on PATH that runs the shell ``script``."""
    program = folder / "nvidia-smi"
    program.write_text(f"#!/bin/sh\n{script}\n", encoding="utf-8")
    program.chmod(0o755)
    monkeypatch.setenv("PATH", f"{folder}{os.pathsep}{os.environ['PATH']}")


@pytest.mark.skipif(sys.platform == "win32", reason="a shell script as nvidia-smi")
def test_gpu_conditions_are_read_from_nvidia_smi_or_none(
    gpu_record: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))  # no nvidia-smi at all
    assert gpu_record.conditions()["gpus"] is None
    assert gpu_record.driver_version() is None
    fake_nvidia_smi(
        tmp_path,
        'case "$1" in --query-gpu=driver_version) echo 580.95.05;; *) '
        "echo '0, NVIDIA H100 80GB HBM3, 1980 MHz, 2619 MHz, 1980 MHz, 41, "
        "118.51 W'; echo '1, NVIDIA H100 80GB HBM3, 1755 MHz, 2619 MHz, 1980 MHz,"
        " 83, [N/A]';; esac",
        monkeypatch,
    )
    gpus = gpu_record.conditions()["gpus"]
    assert [gpu["clocks.sm"] for gpu in gpus] == ["1980 MHz", "1755 MHz"]
    assert gpus[1] == {
        "index": "1",
        "name": "NVIDIA H100 80GB HBM3",
        "clocks.sm": "1755 MHz",
        "clocks.mem": "2619 MHz",
        "clocks.max.sm": "1980 MHz",
        "temperature.gpu": "83",
        "power.draw": "[N/A]",
    }
    assert gpu_record.driver_version() == "580.95.05"
    fake_nvidia_smi(tmp_path, "echo 'no devices were found'", monkeypatch)
    assert gpu_record.conditions()["gpus"] is None  # another shape
    fake_nvidia_smi(tmp_path, "echo 0, 1, 2; exit 9", monkeypatch)
    assert gpu_record.conditions()["gpus"] is None  # failed
    assert gpu_record.driver_version() is None


def test_the_record_holds_load_xla_flags_and_provenance(
    gpu_record: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XLA_FLAGS", "--xla_gpu_autotune_level=0")
    before = gpu_record.conditions()
    assert len(before["load_average"]) == 3
    data = gpu_record.record(
        {},
        smoke=True,
        started=gpu_record.datetime.now(gpu_record.UTC),
        before=before,
        after=gpu_record.conditions(),
    )
    assert data["format"] == FORMAT == 2
    assert data["software"]["xla_flags"] == "--xla_gpu_autotune_level=0"
    assert set(data["conditions"]) == {"before", "after"}
    assert data["script"]["files"] == list(executed_files())
    monkeypatch.delenv("XLA_FLAGS")
    assert (
        gpu_record.record(
            {},
            smoke=True,
            started=gpu_record.datetime.now(gpu_record.UTC),
            before=before,
            after=before,
        )["software"]["xla_flags"]
        == ""
    )


def test_two_benchmark_runs_are_not_paired(gpu_record: ModuleType) -> None:
    """async-dispatch-matmul times its rows by two benchmark() calls: the
    table says so (interleaved false) and its ratio is the unpaired one."""
    measured = gpu_record.async_dispatch_matmul(gpu_record.SMOKE)
    ((_, table),) = measured.tables
    assert table.interleaved is False
    assert gpu_record.timing_table("t", table)["interleaved"] is False
    blocked, dispatch = table["jnp.matmul (blocked)"], table["jnp.matmul"]
    assert table.ratio("jnp.matmul") == dispatch.ratio_to(blocked)


def test_jax_products_are_timed_at_highest_precision_too(
    gpu_record: ModuleType,
) -> None:
    """NumPy computes a true float32 product; JAX's default may be TF32 on a
    GPU, so precision="highest" stands beside it."""
    sizes = gpu_record.SMOKE
    labels = {
        name: [
            timing.label for _, table in make(sizes).tables for timing in table.timings
        ]
        for name, make in (
            ("numpy-vs-jax-matmul", gpu_record.numpy_vs_jax_matmul),
            ("device-put", gpu_record.device_put),
        )
    }
    assert labels["numpy-vs-jax-matmul"] == [
        "jnp.matmul (float32)",
        'jnp.matmul (float32, precision="highest")',
        "np.matmul (float32)",
    ]
    assert labels["device-put"] == [
        "JAX input",
        'JAX input, precision="highest"',
        "NumPy input",
        "after device_put",
        "np.dot (float32)",
    ]


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
    assert record.files == executed_files()
    assert record.script_sha256 == files_sha256(REPO, record.files)
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
