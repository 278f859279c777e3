"""The simulation lab: paired arena schedules, ratings, balance reports and the CLI."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from muster.cli.main import app
from muster.core import get_rules
from muster.core.stats import wilson
from muster.games.freedom.lab import card_stats
from muster.lab.arena import arena_jobs, run_arena, write_arena
from muster.lab.play import GameRecord, play_game
from muster.lab.simulate import run_simulation, summary, write_report
from muster.lab.stats import bradley_terry, ratings


def test_arena_pairs_seeds_and_swaps_seats() -> None:
    jobs = arena_jobs(["a", "b", "c"], games=2, seed=10)
    assert len(jobs) == 3 * 2 * 2
    for j in jobs:
        twin = [k for k in jobs if k.seed == j.seed and set(k.bots) == set(j.bots)]
        assert {k.bots for k in twin} == {j.bots, j.bots[::-1]}
    assert {j.seed for j in jobs} == {10, 11}


@pytest.mark.parametrize("bots,games", [(["a"], 1), (["a", "a"], 1), (["a", "b"], 0)])
def test_arena_rejects_bad_schedules(bots: list[str], games: int) -> None:
    with pytest.raises(ValueError):
        arena_jobs(bots, games)


def test_wilson_interval() -> None:
    rate, low, high = wilson(50, 100)
    assert rate == 0.5 and low == pytest.approx(0.4038, abs=1e-3) and high == pytest.approx(0.5962, abs=1e-3)
    assert wilson(0, 0) == (0.0, 0.0, 1.0)


def test_bradley_terry_recovers_a_known_strength_gap() -> None:
    # A beats B three times in four: the Elo gap is 400·log10(3) ≈ 191 (less a little for the prior).
    results = [("A", "B", 1.0)] * 300 + [("A", "B", 0.0)] * 100
    elo = bradley_terry(results, ["A", "B"])
    assert elo["A"] - elo["B"] == pytest.approx(191, abs=5)
    table = ratings(results, ["A", "B"])
    assert table[0].name == "A" and table[0].low < table[0].elo < table[0].high
    # Two players, 400 games at p = 3/4: each centred rating has a standard error of
    # (1/2)/sqrt(n p (1-p)) natural-log units, 10.0 Elo points, so the 95% half-width is about 19.6.
    assert table[0].high - table[0].elo == pytest.approx(19.6, abs=0.5)


def test_an_unbeaten_bot_gets_an_interval_not_a_point() -> None:
    # Every resample of a perfect record is the same perfect record; the interval must still have width,
    # and it must narrow as the perfect record grows.
    few = ratings([("H", "R", 1.0)] * 8, ["H", "R"])
    many = ratings([("H", "R", 1.0)] * 200, ["H", "R"])
    assert few[0].name == "H" and few[0].low < few[0].elo < few[0].high
    assert few[0].high - few[0].low > 100
    assert many[0].elo > few[0].elo
    assert many[0].high - many[0].low < few[0].high - few[0].low


def test_game_records_are_reproducible() -> None:
    a = play_game(["random", "random"], 5)
    b = play_game(["random", "random"], 5)
    assert (a.winner, a.reason, a.decisions, a.events) == (b.winner, b.reason, b.decisions, b.events)
    assert a.trajectory[0]["round"] == 1 and a.trajectory[-1]["round"] == a.round + 1


def test_small_arena_in_worker_processes(tmp_path: Path) -> None:
    report = run_arena(["random", "heuristic"], games=1, workers=2, show_progress=False)
    assert len(report.records) == 2
    assert {(r.imperial, r.insurgent) for r in report.records} == {("random", "heuristic"), ("heuristic", "random")}
    assert len({r.seed for r in report.records}) == 1
    # Heuristic play beats random play from either seat.
    assert all(r.winner and getattr(r, r.winner) == "heuristic" for r in report.records)
    assert report.ratings[0].name == "heuristic"
    paths = write_arena(report, tmp_path)
    data = json.loads((tmp_path / "arena.json").read_text())
    assert data["games"] == 2 and data["bots"]["heuristic"]["by_side"]["imperial"]["wins"] == 1
    assert (tmp_path / "games.csv").read_text().count("\n") == 3 and len(paths) == 3
    assert (tmp_path / "ratings.png").read_bytes()[:4] == b"\x89PNG"


@pytest.fixture(scope="module")
def records() -> list[GameRecord]:
    """Six quick random-vs-random games."""
    return run_simulation(["random", "random"], games=6, seed=3, workers=1, show_progress=False)


@pytest.mark.parametrize("fmt", ["md", "html"])
def test_balance_report(tmp_path: Path, fmt: str, records: list[GameRecord]) -> None:
    path = write_report(records, tmp_path, fmt)
    text = path.read_text()
    assert "Imperial win rate" in text and "endings.png" in text
    for png in ("endings.png", "length.png", "tracks.png", "cards.png"):
        assert (tmp_path / png).read_bytes()[:4] == b"\x89PNG"
    data = summary(records)
    assert sum(data["endings"].values()) == 6
    assert data["imperial_win_rate_ci95"][0] <= data["imperial_win_rate"] <= data["imperial_win_rate_ci95"][1]
    uses = sum(sum(c.by_seat.values()) for c in card_stats(records))
    assert uses == sum(len(r.events) for r in records)
    version = get_rules("freedom").info.version
    assert data["rules_versions"] == [version] and f"Rules: {version}" in text and "mixed" not in text


def test_a_report_over_games_of_different_rules_says_so(tmp_path: Path, records: list[GameRecord]) -> None:
    older = [dataclasses.replace(r, rules_version="") for r in records[:2]]  # records from before the stamp
    text = write_report(older + records[2:], tmp_path).read_text()
    assert "unknown" in text and "mixed" in text


def test_cli_arena_and_simulate(tmp_path: Path) -> None:
    runner = CliRunner()
    res = runner.invoke(app, ["arena", "random", "ismcts:iterations=2", "--games", "1", "--workers", "1", "-q",
                              "--out", str(tmp_path / "a")])
    assert res.exit_code == 0, res.output
    assert "ismcts" in res.output and (tmp_path / "a" / "arena.json").exists()
    res = runner.invoke(app, ["simulate", "--imperial", "random", "--insurgent", "random", "--games", "2",
                              "--workers", "1", "-q", "--cards", "--out", str(tmp_path / "s")])
    assert res.exit_code == 0, res.output
    assert "Imperial win rate" in res.output and (tmp_path / "s" / "report.md").exists()
    assert "Card events used" in res.output
    assert len((tmp_path / "s" / "games.jsonl").read_text().splitlines()) == 2
    res = runner.invoke(app, ["simulate", "--from", str(tmp_path / "s" / "games.jsonl"), "--format", "html",
                              "--out", str(tmp_path / "r")])
    assert res.exit_code == 0, res.output
    assert "over 2 games" in res.output and (tmp_path / "r" / "report.html").exists()


def test_cli_rejects_unknown_bots_and_formats(tmp_path: Path) -> None:
    runner = CliRunner()
    res = runner.invoke(app, ["arena", "random", "nosuchbot", "--games", "1", "--out", str(tmp_path / "x")])
    assert res.exit_code == 2 and "unknown bot" in res.output
    assert not (tmp_path / "x").exists()
    res = runner.invoke(app, ["simulate", "--imperial", "random", "--insurgent", "random", "--format", "pdf"])
    assert res.exit_code == 2 and "format" in res.output
    res = runner.invoke(app, ["simulate", "--imperial", "random", "--out", str(tmp_path / "y")])
    assert res.exit_code == 2 and "--insurgent" in res.output and not (tmp_path / "y").exists()
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{not json\n")
    res = runner.invoke(app, ["simulate", "--from", str(bad), "--out", str(tmp_path / "z")])
    assert res.exit_code == 2 and "not a game record" in " ".join(res.output.split())  # rich wraps lines
