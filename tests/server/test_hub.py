"""The in-memory game cache: bounded, and safe when two copies of one game meet the database."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from sqlalchemy import update

from muster.core import get_rules
from muster.server.db import GameRow, make_engine, migrate
from muster.server.hub import ApiError, Hub
from muster.server.store import Store

HOLDER = "device:test"
"""The one browser holding every seat of these tests' games."""


async def _create(hub: Hub, players: dict[str, str], ruleset: str, seed: int | None,
                  delay: int) -> tuple[str, dict[str, str]]:
    """Create a game whose people's seats all belong to :data:`HOLDER` (the creator's at once, the others
    by claiming their invitations): (id, token of each human seat)."""
    people = [seat for seat, who in players.items() if who == "human"]
    made = await hub.create(players, {"ruleset": ruleset}, seed, delay, "freedom", people[0] if people else None,
                            HOLDER if people else None)
    tokens = dict(made.tokens)
    for seat, code in made.invitations.items():
        _, claimed_seat, tokens[seat] = await hub.claim(code, HOLDER)
        assert claimed_seat == seat
    return made.game_id, tokens


def _hub(tmp_path: Path, keep: int) -> Hub:
    engine = make_engine(f"sqlite:///{tmp_path / 'hub.db'}")
    migrate(engine)
    return Hub(Store(engine), default_bot_delay_ms=0, keep_games=keep)


def test_the_cache_stays_bounded_and_reloads_by_replay(tmp_path: Path) -> None:
    async def scenario() -> None:
        hub = _hub(tmp_path, keep=2)
        made = [await _create(hub, {"imperial": "human", "insurgent": "human"}, "2nd", None, 0) for _ in range(4)]
        assert len(hub.games) == 2
        live, seat = await hub.by_token(made[0][1]["imperial"], HOLDER)  # evicted: rebuilt from the database
        assert seat == "imperial" and live.version == 0
        await hub.act(live, seat, 0, live.game.legal_actions()[0].to_json())
        assert len(hub.games) == 2
        await hub.close()

    asyncio.run(scenario())


def test_a_stale_copy_cannot_write_and_is_rebuilt_in_place(tmp_path: Path) -> None:
    async def scenario() -> None:
        hub = _hub(tmp_path, keep=10)
        game_id, tokens = await _create(hub, {"imperial": "human", "insurgent": "human"}, "2nd", None, 0)
        old = hub.games.pop(game_id)  # as if evicted while a request still held it
        new, seat = await hub.by_token(tokens["imperial"], HOLDER)
        assert new is not old
        await hub.act(old, seat, 0, old.game.legal_actions()[0].to_json())
        with pytest.raises(ApiError) as refused:  # same version, but the database has moved on
            await hub.act(new, seat, 0, new.game.legal_actions()[-1].to_json())
        assert refused.value.code == "stale" and new.stale
        fresh, _ = await hub.by_token(tokens["imperial"], HOLDER)  # the same object (sockets hold it), caught up
        assert fresh is new and fresh.version == 1 and len(fresh.game.actions) == 1 and not fresh.stale
        await hub.close()

    asyncio.run(scenario())


def test_a_game_that_no_longer_replays_gets_a_clear_error(tmp_path: Path) -> None:
    async def scenario() -> None:
        hub = _hub(tmp_path, keep=10)
        game_id, tokens = await _create(hub, {"imperial": "human", "insurgent": "human"}, "2nd", None, 0)
        live = hub.games.pop(game_id)
        summary = live.summary()
        hub.store.write(lambda s: hub.store.append_in(s, game_id, 0, 0, "imperial", ["no-such-verb", None], summary))
        with pytest.raises(ApiError) as refused:
            await hub.by_token(tokens["imperial"], HOLDER)
        assert refused.value.code == "corrupt" and refused.value.status == 500
        await hub.close()

    asyncio.run(scenario())


def test_a_game_recorded_under_other_rules_is_refused_and_kept(tmp_path: Path) -> None:
    async def scenario() -> None:
        hub = _hub(tmp_path, keep=10)
        game_id, tokens = await _create(hub, {"imperial": "human", "insurgent": "random"}, "2nd", 3, 0)
        live, seat = await hub.by_token(tokens["imperial"], HOLDER)
        await hub.act(live, seat, 0, live.game.legal_actions()[0].to_json())
        hub.games.clear()
        with hub.store.session() as s, s.begin():  # as if recorded by an older release, and the bot's turn
            s.execute(update(GameRow).where(GameRow.id == game_id).values(rules_version="r0-older",
                                                                          active_seat="insurgent"))
        with pytest.raises(ApiError) as refused:
            await hub.by_token(tokens["imperial"], HOLDER)
        assert refused.value.code == "outdated" and refused.value.status == 409
        assert "r0-older" in refused.value.message and get_rules("freedom").info.version in refused.value.message
        stored = hub.store.load(game_id)
        assert stored is not None and len(stored.actions) == 1  # nothing lost
        assert hub.store.bot_games_waiting("r0-older") == [game_id]  # a restart must not wake that bot
        assert hub.store.bot_games_waiting(get_rules("freedom").info.version) == []
        await hub.close()

    asyncio.run(scenario())


def test_nobody_sees_a_change_before_it_is_stored(tmp_path: Path) -> None:
    import sqlite3

    async def scenario() -> None:
        hub = _hub(tmp_path, keep=10)
        _, tokens = await _create(hub, {"imperial": "human", "insurgent": "human"}, "2nd", None, 0)
        live, seat = await hub.by_token(tokens["imperial"], HOLDER)
        blocker = sqlite3.connect(tmp_path / "hub.db", isolation_level=None)
        blocker.execute("BEGIN IMMEDIATE")  # another writer holds the database: our commit has to wait
        pending = asyncio.create_task(hub.act(live, seat, 0, live.game.legal_actions()[0].to_json()))
        await asyncio.sleep(0.3)
        assert not pending.done()
        assert live.version == 0 and live.game.actions == [] and live.game.view(seat)["step"] == 0
        blocker.execute("ROLLBACK")
        blocker.close()
        assert await pending == 1
        assert live.version == 1 and len(live.game.actions) == 1
        await hub.close()

    asyncio.run(scenario())


def test_a_batch_with_a_lost_race_commits_the_others(tmp_path: Path) -> None:
    """The group writer's fast path (one executemany per batch) falls back to one change at a time
    when a change in the batch lost its race: only that change fails."""
    from muster.server.store import GroupWriter, StaleWriteError, Summary, Write

    async def scenario() -> None:
        hub = _hub(tmp_path, keep=10)
        made = [await _create(hub, {"imperial": "human", "insurgent": "human"}, "2nd", None, 0) for _ in range(3)]
        writer = GroupWriter(hub.store, window_ms=100)  # everything below lands in one batch
        summary = Summary(1, 1, "imperial", "active", None, None)
        futures = [writer.submit(Write(game_id, 0, summary, step=0, seat="imperial", action=["x", k]))
                   for k, (game_id, _) in enumerate(made)]
        futures.append(writer.submit(Write(made[1][0], 0, summary, step=0, seat="imperial", action=["y", 0])))
        results = await asyncio.gather(*futures, return_exceptions=True)
        assert results[:3] == [None, None, None]
        assert isinstance(results[3], StaleWriteError)
        for k, (game_id, _) in enumerate(made):
            stored = hub.store.load(game_id)
            assert stored is not None and stored.version == 1 and stored.actions == [["x", k]]
        writer.close()
        await hub.close()

    asyncio.run(scenario())


def test_a_chosen_seed_replays_the_same_bot_game_and_a_secret_key_does_not_leak_into_bots(tmp_path: Path) -> None:
    """Two bot games from one chosen seed are the same game; bots of secret-keyed games get unrelated seeds."""

    async def finished_actions(hub: Hub, seed: int | None) -> list[str]:
        game_id, _ = await _create(hub, {"imperial": "random", "insurgent": "random"}, "2nd", seed, 0)
        live = hub.games[game_id]
        for _ in range(1200):  # two random bots finish a game in a few seconds
            if live.game.outcome is not None:
                break
            await asyncio.sleep(0.05)
        assert live.game.outcome is not None
        return [a.to_json() for a in live.game.actions]

    async def scenario() -> None:
        hub = _hub(tmp_path, keep=10)
        assert await finished_actions(hub, 8) == await finished_actions(hub, 8)
        one, _ = await _create(hub, {"imperial": "human", "insurgent": "random"}, "2nd", None, 0)
        two, _ = await _create(hub, {"imperial": "human", "insurgent": "random"}, "2nd", None, 0)
        assert hub.games[one].bot_seed("insurgent") != hub.games[two].bot_seed("insurgent")
        await hub.close()

    asyncio.run(scenario())
