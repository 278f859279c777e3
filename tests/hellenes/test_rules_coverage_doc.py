"""docs/hellenes-rules-coverage.md stays true: every seed section names a test, every named test exists,
and every Hellenes rule test is named."""

from __future__ import annotations

import re
from pathlib import Path

HERE = Path(__file__).parent
DOC = HERE.parents[1] / "docs" / "hellenes-rules-coverage.md"
SEED_SECTIONS = ("3.3", "4.0", "4.0 Example", "4.1", "4.2", "4.2.1", "4.2.2", "4.2.3", "4.3", "4.4", "5.0", "5.1",
                 "5.2", "5.2.1", "5.2.2", "5.2.3", "5.3", "5.4", "5.4.1", "5.4.2", "5.5", "6.0", "6.1", "6.2",
                 "6.3.1", "6.3.2", "6.3.3")


def _defined() -> dict[str, set[str]]:
    return {p.name: set(re.findall(r"^def (test_\w+)", p.read_text(encoding="utf-8"), flags=re.MULTILINE))
            for p in HERE.glob("test_*.py")}


def _cited(cell: str) -> set[tuple[str, str]]:
    """(file, test) pairs of a table cell: `file.py::test_a`, `::test_b` continue the last file."""
    out, current = set(), ""
    for file, test in re.findall(r"`(test_\w+\.py)?::(test_\w+)`", cell):
        current = file or current
        out.add((current, test))
    return out


def test_every_seed_section_has_a_test_and_every_cited_test_exists() -> None:
    text = DOC.read_text(encoding="utf-8")
    defined = _defined()
    rows = {}
    for line in text.splitlines():
        m = re.match(r"\| (\d\.\d(?:\.\d)?(?: Example)?)[ |]", line)
        if m:
            rows.setdefault(m.group(1), set()).update(_cited(line))
    for section in SEED_SECTIONS:
        assert rows.get(section), f"seed section {section} names no test"
    everything = set().union(*(_cited(line) for line in text.splitlines()))
    missing = sorted(f"{f}::{t}" for f, t in everything if t not in defined.get(f, set()))
    assert missing == []
    rule_tests = {(f, t) for f, ts in defined.items() if f.startswith("test_rule_") for t in ts}
    assert sorted(rule_tests - everything) == []
