"""jaxguide.records: the sizes a page states come from many runs, read right.

The record itself is made by ``nox -s record`` (tests/benchmarks/
timing_record.py), which also checks that runs left out land in the range
the others state; here: how a record is read, what a ratio says with one,
and that every ratio a measuring page glues has one.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from jaxguide import records, site
from jaxguide.ratios import Ratio, UnexpectedVerdict
from jaxguide.records import WIDEN, Recorded, recorded, rerun_range
from jaxguide.site import glue
from jaxguide_site.myst_notebook import code_cells

REPO = Path(__file__).resolve().parents[1]


def write_record(
    folder: Path, name: str, platform: str, date: str, **ratios: list[float]
) -> None:
    folder.mkdir(exist_ok=True)
    record = {
        "date": date,
        "machine": {"platform": platform, "cores": 2, "cpu_model": "Test CPU"},
        "ratios": {
            key.replace("_", "-"): {
                "values": values,
                "busy": [False, True] * (len(values) // 2),
            }
            for key, values in ratios.items()
        },
    }
    (folder / f"{name}.json").write_text(json.dumps(record), encoding="utf-8")


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    records._load.cache_clear()
    yield tmp_path / "records"
    records._load.cache_clear()


def test_a_rerun_lands_in_the_recorded_range_widened_by_a_quarter() -> None:
    assert rerun_range([2.0, 2.2, 2.4, 2.1]) == (1.6, 3.0)
    # one extreme run: the range never leaves it out
    assert rerun_range([1.0, 1.0, 1.0, 9.0])[1] == 9.0 * WIDEN
    with pytest.raises(ValueError, match="record at least 4"):
        rerun_range([1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="must be positive"):
        rerun_range([1.0, 0.0, 2.0, 3.0])


def test_a_gpu_record_never_states_a_cpu_size_and_the_newest_record_wins(
    folder: Path,
) -> None:
    write_record(folder, "gpu", "gpu", "2026-12-05", loop=[90.0, 91.0, 92.0, 93.0])
    write_record(folder, "old", "cpu", "2026-11-01", loop=[5.0, 5.1, 5.2, 5.3])
    write_record(folder, "new", "cpu", "2026-12-01", loop=[7.0, 7.1, 7.2, 7.3])
    found = recorded("loop", folder)
    assert found is not None
    assert found.values == (7.0, 7.1, 7.2, 7.3)
    assert found.machine == "2-core CPU"
    assert recorded("missing", folder) is None


def test_a_cpu_record_states_nothing_where_jax_runs_on_an_accelerator(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A reader's Colab GPU run states its own run, not the CPU's range."""
    write_record(folder, "cpu", "cpu", "2026-12-01", loop=[7.0, 7.1, 7.2, 7.3])
    assert recorded("loop", folder) is not None
    monkeypatch.setattr("jax.default_backend", lambda: "gpu")
    assert recorded("loop", folder) is None


def test_while_recording_a_page_states_its_own_run(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_record(folder, "cpu", "cpu", "2026-12-01", loop=[7.0, 7.1, 7.2, 7.3])
    monkeypatch.setenv(records.RECORDING_ENV, "1")
    assert recorded("loop", folder) is None


def recorded_ratio(*values: float, busy: tuple[bool, ...] | None = None) -> Recorded:
    flags = (False, True) * (len(values) // 2) if busy is None else busy
    return Recorded("loop", values, flags, "2-core CPU", "")


def test_idle_and_busy_runs_that_agree_give_a_direction() -> None:
    # async-dispatch's stream: 1.5x faster idle, 3-5x busy. A bell curve over
    # both crossed 1 although every run ranked the two the same way.
    idle, busy = [0.575, 0.666, 0.594, 0.687], [0.241, 0.199, 0.357, 0.272]
    both = recorded_ratio(*idle, *busy, busy=(False,) * 4 + (True,) * 4)
    low, high = both.range
    assert high < 1 / 1.05  # the record states the lesson's direction
    assert low <= min(busy)
    assert high >= max(idle)
    assert both.verdict(1.05) == "faster"


def test_a_ratio_with_a_record_states_the_records_range_and_its_own_run() -> None:
    ratio = Ratio("loop", "scan", 12.0, 11.0, 13.0, 0.96, 15)
    stated = ratio.with_record(
        recorded_ratio(9.0, 10.0, 14.0, 12.0, 11.0, 13.0, busy=(False,) * 6)
    )
    text = str(stated)
    assert stated.record is not None
    low, high = stated.record.range
    assert (low, high) == (7.2, 17.5)
    assert text.startswith("'loop' took 7.2–18× as long")  # rounded outward
    assert (
        "as long as 'scan' (a rerun's range estimated from 6 runs on a 2-core CPU"
        in text
    )
    assert "this run: 12×" in text
    assert "95 %" not in text  # one run's interval is no claim about a rerun
    html = stated._repr_html_()
    assert (
        "<code>loop</code>의 실행 시간이 <code>scan</code>의 7.2–18배였습니다" in html
    )
    assert (
        "2코어 CPU에서 유휴·부하 상태를 섞어 6번 실행한 기록으로 추정한 재실행 범위"
        in html
    )
    assert "이번 실행은 12배" in html


def test_a_record_whose_runs_disagree_says_the_order_changes() -> None:
    ratio = Ratio("a", "b", 1.1, 1.06, 1.2, 0.96, 15)
    varies = ratio.with_record(recorded_ratio(0.9, 1.4, 1.1, 0.8, 1.2, 1.3))
    assert "a rerun may find either one faster" in str(varies)
    assert "다시 실행하면 어느 쪽이든 더 빠를 수 있습니다" in varies._repr_html_()
    # every run had 'a' slower, but the range a rerun lands in crosses 1
    unranked = ratio.with_record(recorded_ratio(1.01, 1.012, 1.011, 1.013))
    assert str(unranked).startswith("'a' took 0.80–1.27× the time of 'b': a rerun")
    faster = Ratio("jit", "eager", 0.2, 0.19, 0.21, 0.96, 15)
    stated = faster.with_record(recorded_ratio(0.2, 0.25, 0.22, 0.18, 0.21, 0.2))
    assert str(stated).startswith("'jit' ran ")
    assert "this run: 5.0×" in str(stated)


def test_an_expected_direction_needs_the_record_to_state_it() -> None:
    expected = Ratio("loop", "scan", 2.5, 2.0, 3.0, 0.96, 15).expect("slower")
    expected.with_record(recorded_ratio(2.4, 2.5, 2.6, 2.5, 2.45, 2.55))
    # jit's outer lesson: every run slower, one by 1.06x only
    with pytest.raises(UnexpectedVerdict, match="drop the expect"):
        expected.with_record(recorded_ratio(2.47, 2.34, 3.06, 2.78, 2.92, 1.06))
    # not expected: the same record is stated, not enforced
    Ratio("loop", "scan", 2.5, 2.0, 3.0, 0.96, 15).with_record(
        recorded_ratio(0.9, 2.5, 3.0, 1.2, 2.0, 2.8)
    )


def test_glue_states_a_ratio_from_the_record_of_its_name(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_record(folder, "cpu", "cpu", "2026-12-01", slow_loop=[7.0, 7.5, 8.0, 7.2])
    monkeypatch.setattr(records, "RECORDS", folder)
    glued: dict[str, object] = {}

    def record(name: str, value: object, *, display: bool) -> None:  # noqa: ARG001
        glued[name] = value

    # As in a page's kernel during the site's build: glue records.
    monkeypatch.setenv(site.GLUE_ENV, "1")
    monkeypatch.setattr(site, "_in_a_kernel", lambda: True)
    monkeypatch.setattr(site, "_record", record)
    ratio = Ratio("loop", "scan", 7.3, 7.0, 7.6, 0.96, 15)
    glue("slow-loop", ratio)
    glue("no-record", ratio)
    assert "from 4 runs" in str(glued["slow-loop"])
    assert "in this run" in str(glued["no-record"])


def glued_ratio_names(page: Path) -> set[str]:
    """Names a page glues a Ratio under: ``glue("name", <...ratio/verdict...>)``."""
    names = set()
    for cell in code_cells(page.read_text(encoding="utf-8")):
        for node in ast.walk(ast.parse(cell.source)):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "glue"
                and isinstance(node.args[0], ast.Constant)
            ):
                value = ast.unparse(node.args[1])
                if "format_duration" in value or isinstance(
                    node.args[1], ast.JoinedStr
                ):
                    continue  # a duration or a sentence, not a Ratio
                said = f"{node.args[0].value} {value}"
                if any(
                    word in said
                    for word in ("ratio", "verdict", "expect(", "-vs-", "-over-")
                ):
                    names.add(node.args[0].value)
    return names


def test_every_ratio_a_measuring_page_glues_has_a_record() -> None:
    """A new measured ratio would state one run's size as if it were a
    rerun's: record it (``nox -s record``) and commit the record."""
    from jaxguide_site.execution.measuring import declares_measuring  # noqa: PLC0415

    records._load.cache_clear()
    pages = [
        page
        for page in sorted((REPO / "docs" / "en").glob("*.md"))
        if declares_measuring(page.read_text(encoding="utf-8"))
    ]
    glued = {name: page.stem for page in pages for name in glued_ratio_names(page)}
    assert len(glued) >= 38  # the parse found them all
    missing = sorted(
        f"{page}: {name}" for name, page in glued.items() if recorded(name) is None
    )
    assert missing == [], f"no record for {missing}: run nox -s record and commit it"
