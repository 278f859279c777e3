"""The settings object: every MUSTER_ variable the code reads is a documented setting, the file and the
environment combine as docs/settings.md says, and a wrong value stops the server with its name."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from muster.server.settings import INTERNAL, PREFIX, Settings, markdown, reload

ROOT = Path(__file__).resolve().parents[2]


def test_every_variable_the_code_reads_is_a_setting_and_documented() -> None:
    used = set()
    for path in (ROOT / "src").rglob("*.py"):
        used |= set(re.findall(r"\bMUSTER_[A-Z_]+[A-Z]\b", path.read_text(encoding="utf-8")))
    fields = {PREFIX + name.upper() for name in Settings.model_fields}
    assert used - fields - set(INTERNAL) == set()
    assert markdown() in (ROOT / "docs" / "settings.md").read_text(encoding="utf-8"), \
        "docs/settings.md is out of date: python -m muster.server.settings prints the table"


def test_the_environment_wins_over_the_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = tmp_path / "muster.toml"
    config.write_text('database_url = "sqlite:///from-file.db"\nbot_delay_ms = 50\nlog_level = "warning"\n')
    monkeypatch.setenv("MUSTER_CONFIG", str(config))
    monkeypatch.setenv("MUSTER_BOT_DELAY_MS", "70")
    try:
        loaded = reload()
        assert (loaded.database_url, loaded.bot_delay_ms, loaded.log_level) == ("sqlite:///from-file.db", 70,
                                                                                "warning")
    finally:
        monkeypatch.undo()
        reload()


def test_a_wrong_setting_stops_the_server_naming_it(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "muster.cli.main", "serve", "--port", "1"], cwd=tmp_path,
                          env={"PATH": "/usr/bin:/bin", "MUSTER_LOG_LEVEL": "loud"}, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 2
    assert "log_level" in done.stderr and "serving on" not in done.stdout
