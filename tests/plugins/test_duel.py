"""Duel, the test suite's third game, shows up everywhere a game does, though nothing outside its package and its
entry point names it: in the games listed, the lobby, the terminal, the lab, the research adapters and the
browser, where a person plays it to the end by clicking. (The contract suite, ``tests/contract``, checks its
rules like every other game's.)"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.server.helpers import ARGS, CHROMIUM, Server, create, hand_device

from muster.core.registry import game_module, game_names

ROOT = Path(__file__).resolve().parents[2]
PLUGIN = Path(__file__).resolve().with_name("muster_duel")


def test_duel_is_found_through_its_entry_point_alone() -> None:
    (entry,) = [e for e in entry_points(group="muster.games") if e.name == "duel"]
    assert entry.value == "muster_duel.module:MODULE" and entry.dist is not None
    assert entry.dist.metadata["Name"] == "muster-duel"
    assert "duel" in game_names() and game_module("duel").root == PLUGIN
    # the boundary holds: no file of muster itself names the game
    named = [str(p) for p in (ROOT / "src").rglob("*") if p.is_file() and p.suffix in (".py", ".js", ".html", ".toml")
             and re.search(r"\bduel\b", p.read_text(encoding="utf-8", errors="replace"), re.IGNORECASE)]
    assert named == []


def test_duel_bots_and_levels_come_from_its_module() -> None:
    module = game_module("duel")
    factory = module.bot_factory("counting")
    rules = module.rules_object
    bot = factory(rules, 1, {})
    state = rules.setup(3, {})
    while (seat := rules.active_seat(state)) is not None:
        legal = rules.legal_actions(state)
        choice = bot.choose(rules.view(state, seat), legal, seat)
        assert choice in legal
        rules.apply(state, choice)
    assert rules.outcome(state) is not None
    assert set(module.levels) == {"beginner", "standard"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A ``muster serve`` of this module's own (SQLite); it finds Duel through the PYTHONPATH conftest set."""
    tmp = tmp_path_factory.mktemp("duel-server")
    srv = Server(f"sqlite:///{tmp / 'muster.db'}", tmp)
    srv.start()
    yield srv
    srv.stop()


def test_duel_is_offered_in_the_lobby(server: Server) -> None:
    meta = httpx.get(server.url + "/api/meta", timeout=30).json()
    duel = next(g for g in meta["games"] if g["name"] == "duel")
    assert duel["title"] == "Duel" and duel["seats"] == ["north", "south"]
    assert {level["id"] for level in duel["levels"]} == {"beginner", "standard"}


def test_duels_board_module_is_served_from_its_package(server: Server) -> None:
    board = httpx.get(server.url + "/static/games/duel/board.js", timeout=30)
    assert board.status_code == 200 and "export function createBoard" in board.text


def test_duel_plays_in_the_terminal(tmp_path: Path) -> None:
    pexpect = pytest.importorskip("pexpect")
    env = dict(os.environ, TERM="xterm-256color", COLUMNS="120", LINES="50")
    child = pexpect.spawn(sys.executable, ["-m", "muster.cli.main", "play", "--game", "duel", "--seed", "3"],
                          cwd=str(tmp_path), env=env, dimensions=(50, 120), encoding="utf-8",
                          timeout=300)  # generous: a failure bound only; each wait ends at the next prompt
    seen = ""
    for _ in range(200):  # 5 tricks: 20 decisions, each perhaps after a hand-over screen
        k = child.expect([r"(?:North|South)(?:\x1b\[[0-9;]*m)* › ", r"Press Enter when ready", r"save as › ",
                          pexpect.EOF])
        seen += child.before or ""
        if k == 0:
            child.sendline("1")
        elif k == 1:
            child.expect(r"\n")
            child.sendline("")
        elif k == 2:
            child.sendline("")
        else:
            break
    child.close()
    assert "GAME OVER" in seen and child.exitstatus == 0, seen[-2000:]


def test_duel_runs_in_the_lab(tmp_path: Path) -> None:
    out = tmp_path / "lab"
    run = subprocess.run([sys.executable, "-m", "muster.cli.main", "simulate", "--game", "duel",
                          "--north", "random", "--south", "counting", "--games", "4",
                          "--workers", "1", "--quiet", "--out", str(out)], capture_output=True, text=True,
                         timeout=600, cwd=tmp_path)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    records = [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines()]
    assert len(records) == 4


def test_duel_passes_the_pettingzoo_checks() -> None:
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test, seed_test

    from muster.rl.pettingzoo import env

    api_test(env(game="duel"), num_cycles=200)
    seed_test(lambda: env(game="duel"), num_cycles=100)


def test_duel_passes_the_gymnasium_checks() -> None:
    gymnasium = pytest.importorskip("gymnasium")
    from gymnasium.utils.env_checker import check_env

    import muster.rl.gymnasium as adapter

    e = gymnasium.make(adapter.env_id("duel"), opponent="random").unwrapped
    check_env(e, skip_render_check=True)
    _, info = e.reset(seed=3)
    done, steps = False, 0
    while not done:  # the first legal action each time, to the end of the game
        _, _, terminated, truncated, info = e.step(int(info["action_mask"].nonzero()[0][0]))
        done, steps = terminated or truncated, steps + 1
    assert steps <= 20


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's headless Chromium, launched by its path (no browser is downloaded)."""
    if not CHROMIUM.exists():
        pytest.skip("Debian's chromium is not installed")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=ARGS)
        yield b
        b.close()


@pytest.mark.slow
def test_a_person_plays_duel_to_the_end_in_the_browser(server: Server, browser: Any) -> None:
    with server.client() as c:
        made = create(c, game="duel", north="human", south="standard", seed=5)
    token = made["tokens"]["north"]
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    hand_device(context, server.url, token)
    page = context.new_page()
    page.goto(f"{server.url}/play/{token}")
    page.wait_for_selector("#status[data-version]")
    for _ in range(40):  # 5 tricks: 10 picks and 10 plays of mine at most
        page.wait_for_function("() => document.body.classList.contains('my-turn') "
                               "|| document.body.classList.contains('game-ended')", timeout=60000)
        if page.evaluate("document.body.classList.contains('game-ended')"):
            break
        old = page.get_attribute("#status", "data-version")
        if page.locator(".hand-card.legal").count():
            page.click(".hand-card.legal >> nth=0")
            page.click("#card-menu .menu-item >> nth=0")
        else:
            page.click("#actions button[data-verb=play]")
        page.wait_for_function("v => document.querySelector('#status').dataset.version !== v", arg=old,
                               timeout=60000)
    assert page.is_visible("#game-over")
    assert re.search(r"You won!|South wins", page.text_content("#go-title") or "")
    context.close()
