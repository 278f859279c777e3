"""ISMCTS with seeded playouts and root-parallel worker processes (option ``workers``)."""

from __future__ import annotations

import math
import multiprocessing
import time
from typing import Any

import pytest
from tests.ai.test_bots import _card_turns, _positions

from muster.ai import BotSpecError, make_bot
from muster.core import get_rules
from muster.games.freedom.bots import ismcts

RULES = get_rules("freedom")


def test_seeded_playouts_are_deterministic_for_a_seed() -> None:
    for s in _card_turns():
        seat = RULES.active_seat(s)
        assert seat is not None
        view, legal = RULES.view(s, seat), RULES.legal_actions(s)
        first = make_bot("ismcts:workers=1,iterations=12", seed=9, game="freedom").choose(view, legal, seat)
        again = make_bot("ismcts:workers=1,iterations=12", seed=9, game="freedom").choose(view, legal, seat)
        assert first == again and first in legal


def test_worker_processes_choose_what_one_process_chooses_and_shut_down() -> None:
    """A playout is named by its seeds, so spreading the playouts over processes changes nothing but the time;
    the worker CPU is reported (the card-time benchmark counts it), and the pool stops when asked."""
    one = make_bot("ismcts:workers=1,iterations=12,width=4", seed=5, game="freedom")
    two = make_bot("ismcts:workers=2,iterations=12,width=4", seed=5, game="freedom")
    assert not ismcts._EXECUTORS  # nothing starts before it is needed (the server checks specs by making bots)
    try:
        assert two.start_workers()
        pool = ismcts._EXECUTORS[2]
        for s in _card_turns():
            seat = RULES.active_seat(s)
            assert seat is not None
            view, legal = RULES.view(s, seat), RULES.legal_actions(s)
            assert two.choose(view, legal, seat) == one.choose(view, legal, seat)
            assert two.last_iterations == one.last_iterations >= 4
            assert two.last_worker_cpu > 0 and one.last_worker_cpu == 0
        processes = list(pool._processes.values())  # the stdlib keeps its workers here
        assert processes and all(p.is_alive() for p in processes)
    finally:
        ismcts.shutdown_workers()
    assert not ismcts._EXECUTORS
    assert all(not p.is_alive() for p in processes)


class BatchClock:
    """A clock for the search that moves only when a batch of playouts is played: ``tick`` seconds each.

    The search reads ``time.perf_counter`` to keep to its budget; with this clock the number of batches it plays
    depends on the budget alone, not on how fast (or how loaded) the machine is."""

    def __init__(self, tick: float) -> None:
        self.now, self.tick, self.batches = 1000.0, tick, 0

    def perf_counter(self) -> float:
        """The search's clock."""
        return self.now

    def process_time(self) -> float:
        """The workers' CPU time is measured as ever."""
        return time.process_time()

    def played(self) -> None:
        """One batch of playouts is done."""
        self.batches += 1
        self.now += self.tick


def _batches_within(seconds: float, monkeypatch: pytest.MonkeyPatch) -> tuple[int, int]:
    """How many batches of playouts the two-worker search plays for ``seconds`` of budget when each batch takes an
    eighth of a second; and how many halving rounds it shares the budget over."""
    s = _card_turns()[1]
    seat = RULES.active_seat(s)
    assert seat is not None
    clock = BatchClock(0.125)
    monkeypatch.setattr(ismcts, "time", clock)
    bot = make_bot(f"ismcts:workers=2,seconds={seconds}", seed=1, game="freedom")
    run_tasks = bot._run_tasks

    def timed(*args: Any) -> list[float]:
        values = run_tasks(*args)
        clock.played()
        return values

    monkeypatch.setattr(bot, "_run_tasks", timed)
    try:
        assert bot.start_workers()  # starting processes is not part of a card's budget
        assert bot.choose(RULES.view(s, seat), RULES.legal_actions(s), seat) in RULES.legal_actions(s)
    finally:
        ismcts.shutdown_workers()
    rounds = max(1, math.ceil(math.log2(min(bot.width, len(RULES.legal_actions(s))))))
    return clock.batches, rounds


def test_worker_processes_respect_a_time_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    # Each halving round plays batches until its share of the budget is spent, so the search plays the budget's
    # worth of batches (2 of 1/8 s in 0.25 s) and at most one more per round (the batch running at its deadline).
    batches, rounds = _batches_within(0.25, monkeypatch)
    assert 2 <= batches <= 2 + rounds
    more, _ = _batches_within(0.75, monkeypatch)
    assert 6 <= more <= 6 + rounds


@pytest.mark.parametrize("spec", ["ismcts:workers=1,iterations=6,horizon=2,width=4,playout_plan=all"])
def test_seeded_search_answers_legally_in_varied_positions(spec: str) -> None:
    for s in _positions() + _card_turns():
        seat = RULES.active_seat(s)
        assert seat is not None
        legal = RULES.legal_actions(s)
        assert make_bot(spec, seed=3, game="freedom").choose(RULES.view(s, seat), legal, seat) in legal


def test_workers_are_for_the_card_tree_only() -> None:
    with pytest.raises(BotSpecError):
        make_bot("ismcts:tree=actions,workers=2", game="freedom")


def _choose_in_daemon(spec: str, out: Any) -> None:
    s = _card_turns()[0]
    seat = RULES.active_seat(s)
    assert seat is not None
    out.put(make_bot(spec, seed=2, game="freedom").choose(RULES.view(s, seat), RULES.legal_actions(s), seat))


def test_a_daemonic_process_plays_the_same_playouts_itself() -> None:
    """The web server's bot workers and the lab's game workers are daemonic and may not start processes; there
    ``workers=2`` plays its seeded playouts in its own process and chooses what it would have chosen."""
    context = multiprocessing.get_context("fork")
    out = context.Queue()
    child = context.Process(target=_choose_in_daemon, args=("ismcts:workers=2,iterations=8", out), daemon=True)
    child.start()
    chosen = out.get(timeout=120)
    child.join(timeout=30)
    assert child.exitcode == 0
    s = _card_turns()[0]
    seat = RULES.active_seat(s)
    assert seat is not None
    assert chosen == make_bot("ismcts:workers=1,iterations=8", seed=2, game="freedom").choose(RULES.view(s, seat),
                                                                              RULES.legal_actions(s), seat)
    assert not ismcts._EXECUTORS
