"""docs/rules-coverage.md stays true: it names only tests that exist, and every rule test is named in it."""

from __future__ import annotations

import re
from pathlib import Path

HERE = Path(__file__).parent
DOC = HERE.parents[1] / "docs" / "rules-coverage.md"


def _defined() -> set[str]:
    names: set[str] = set()
    for path in HERE.glob("test_rule_*.py"):
        names |= set(re.findall(r"^def (test_\w+)", path.read_text(encoding="utf-8"), flags=re.MULTILINE))
    return names


def test_the_coverage_document_names_existing_tests_only() -> None:
    # every test the document cites exists, and every rule test is cited
    text = DOC.read_text(encoding="utf-8")
    cited = {n for n in re.findall(r"::(test_\w+)", text)} | {n for n in re.findall(r"`(test_\w+)`", text)}
    files = {p.stem for p in HERE.glob("test_rule_*.py")}
    defined = _defined()
    assert sorted(cited - defined - files) == []
    assert sorted(defined - cited) == []
    assert all(f"{stem}.py" in text for stem in files)
