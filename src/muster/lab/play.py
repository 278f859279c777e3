"""Play one bot-vs-bot game and record what the lab's reports need."""

from __future__ import annotations

import json
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from muster.ai import make_bot
from muster.core import get_rules
from muster.games.freedom.constants import IMPERIAL, INSURGENT

SEATS = (IMPERIAL, INSURGENT)


@dataclass
class GameRecord:
    """One finished game: who played, how it ended, and the trajectories plotted by the reports."""

    seed: int
    imperial: str
    insurgent: str
    winner: str | None
    reason: str
    round: int
    decisions: int
    seconds: dict[str, float]
    """CPU seconds each bot spent choosing (process time, so other load on the machine does not count)."""
    events: list[tuple[str, int]] = field(default_factory=list)
    """(seat, card) for every card played as an event (or taken with the discard-to-trigger rule)."""
    trajectory: list[dict[str, int]] = field(default_factory=list)
    """Tracks at the start of every round and at the end: round, morale and supplies of both sides."""
    rules_version: str = ""
    """The rules that played it (``GameInfo.version``; empty in records from before it was stored)."""

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return asdict(self)


def load_records(path: Path) -> list[GameRecord]:
    """Read the records a run streamed to a JSON-lines file (ValueError if a line is not a record)."""
    records = []
    for n, line in enumerate(path.read_text().splitlines(), 1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
            data["events"] = [(str(seat), int(card)) for seat, card in data.get("events", [])]
            records.append(GameRecord(**data))
        except (ValueError, TypeError) as exc:
            raise ValueError(f"{path}:{n}: not a game record ({exc})") from exc
    return records


def _snapshot(state: Any) -> dict[str, int]:
    imp, ins = state.tracks[IMPERIAL], state.tracks[INSURGENT]
    return {
        "round": state.round,
        "imperial_morale": imp["morale"],
        "insurgent_morale": ins["morale"],
        "imperial_supplies": imp["supplies"],
        "imperial_money": imp["money"],
        "insurgent_supplies": ins["supplies"],
    }


def play_game(imperial: str, insurgent: str, seed: int, ruleset: str = "2nd", max_decisions: int = 20000) -> GameRecord:
    """Play a full game between two bot specs on the deal and dice of ``seed``.

    Each bot sees only ``rules.view(state, its seat)``; the true state never leaves this function.
    The bots' own seeds derive from the game seed, so a game is reproducible.
    """
    rules = get_rules("freedom")
    state = rules.setup(seed, {"ruleset": ruleset, "quiet": "1"})
    bots = {IMPERIAL: make_bot(imperial, seed=seed * 2 + 1, rules=rules),
            INSURGENT: make_bot(insurgent, seed=seed * 2 + 2, rules=rules)}
    seconds = {IMPERIAL: 0.0, INSURGENT: 0.0}
    record = GameRecord(seed, imperial, insurgent, None, "", 1, 0, seconds, rules_version=rules.info.version)
    record.trajectory.append(_snapshot(state))
    last_round = state.round
    while rules.outcome(state) is None:
        if record.decisions >= max_decisions:
            raise RuntimeError(f"game {seed} did not end within {max_decisions} decisions")
        seat = rules.active_seat(state)
        assert seat is not None
        legal = rules.legal_actions(state)
        t0 = time.process_time()
        action = legal[0] if len(legal) == 1 else bots[seat].choose(rules.view(state, seat), legal, seat)
        seconds[seat] += time.process_time() - t0
        if action.verb in ("event", "trigger") and state.stack[-1]["kind"] in ("card_turn", "final_trigger"):
            card = action.arg if action.verb == "event" else (state.trigger or {}).get("card")
            if isinstance(card, int):
                record.events.append((seat, card))
        rules.apply(state, action)
        record.decisions += 1
        if state.round != last_round:
            last_round = state.round
            record.trajectory.append(_snapshot(state))
    outcome = rules.outcome(state)
    assert outcome is not None
    record.winner, record.reason, record.round = outcome.winner, outcome.reason, state.round
    record.trajectory.append({**_snapshot(state), "round": state.round + 1})
    return record
