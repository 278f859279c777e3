"""The log travels as structured entries: a message id, its arguments and the line in the reader's language.

Front ends read what a line is (a heading, a card played, a side, dice) from the id and the arguments, never
from its words: a Polish reader's page gets no English copy of the log, and the board modules classify a line
the same whatever its text says.
"""

from __future__ import annotations

import json
import random
import re
import time
from pathlib import Path
from typing import Any

import pytest

from muster.core import Game, get_rules
from muster.i18n import message_of
from muster.server.views import wire_log

from .helpers import Server, act, create, state, ws_connect, ws_recv
from .test_e2e import CHROMIUM

ROOT = Path(__file__).resolve().parents[2]
SHELL = ROOT / "src" / "muster" / "server" / "static"
BOARD_MODULES = sorted([*ROOT.glob("src/muster/games/*/static/board.js"),
                        *ROOT.glob("tests/plugins/*/static/board.js")])
LOG_FUNCTIONS = ("classify", "dice", "reorder", "trackHistory")
"""What a board module offers the log: none of them may read a line's words."""


def function_body(source: str, name: str) -> str | None:
    """The body of ``export function name(...) {...}`` in a JavaScript module (braces counted, its string
    literals emptied), or None."""
    source = re.sub(r'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|`(?:\\.|[^`\\])*`', '""', source)
    found = re.search(rf"export function {name}\([^)]*\)\s*\{{", source)
    if found is None:
        return None
    depth, k = 1, found.end()
    while depth:
        depth += {"{": 1, "}": -1}.get(source[k], 0)
        k += 1
    return source[found.end():k - 1]


def test_no_front_end_reads_the_words_of_a_log_line() -> None:
    """No English twin of the log exists any more, no board module rewords or parses lines (``polish``,
    ``parseDice``), and the board modules' log functions neither look at an entry's text nor hold a regular
    expression: they read message ids and arguments."""
    assert len(BOARD_MODULES) >= 3, BOARD_MODULES
    for path in [*SHELL.glob("*.js"), *BOARD_MODULES]:
        source = path.read_text("utf-8")
        assert "log_en" not in source and "logEn" not in source, path
        assert not re.search(r"export function (polish|parseDice)\b", source), path
        assert "mod.polish" not in source and "mod.parseDice" not in source, path
    for path in BOARD_MODULES:
        source = path.read_text("utf-8")
        assert function_body(source, "classify") is not None, path
        for name in LOG_FUNCTIONS:
            body = function_body(source, name)
            if body is None:
                continue
            assert not re.search(r"\.t\b", body), (path, name)  # the line's words
            assert not re.search(r"(\.test|\.match|\.replace)\(|(^|[=(,:]\s*)/[^/*\s][^/\n]*/[gimsuy]*[.;,)]",
                                 body, re.M), (path, name)


def played(game: str, seed: int, options: dict[str, str] | None = None) -> Game:
    """A game played by random choices to its end."""
    g = Game(get_rules(game), seed, options)
    chooser = random.Random(seed)
    while g.active_seat is not None:
        g.apply(chooser.choice(g.legal_actions()))
    return g


def test_entries_carry_the_message_its_arguments_and_the_readers_line() -> None:
    """The same ids and arguments in every language; only the words differ, and they are the log's own."""
    for name, options in (("freedom", None), ("hellenes", {"years": "1"})):
        g = played(name, 3, options)
        en, pl = wire_log(g, "en"), wire_log(g, "pl")
        assert [e["t"] for e in en] == g.log("en") and [e["t"] for e in pl] == g.log("pl")
        assert [(e["m"], e["a"], e.get("p")) for e in en] == [(e["m"], e["a"], e.get("p")) for e in pl]
        assert sum(a["t"] != b["t"] for a, b in zip(en, pl, strict=True)) > len(en) * 0.9, name
        later = wire_log(g, "pl", start=len(pl) - 5)
        assert later == pl[-5:]


def test_a_polish_seat_gets_one_polish_log_and_no_english_copy(server: Server) -> None:
    """A Polish reader's state message and pushes hold the log once, in Polish: no ``log_en``, and none of the
    English lines anywhere in them (message ids are ids: a line with no arguments may equal its id)."""
    with server.client() as c:
        token = create(c, imperial="human", insurgent="beginner", seed=5)["tokens"]["imperial"]
        en = state(c, token)
        pl = c.get(f"/api/seat/{token}?lang=pl").json()
    with ws_connect(server.ws_url, token, "?lang=pl") as ws:
        pushed = ws_recv(ws, "state")
    for message in (pl, pushed):
        assert message["lang"] == "pl" and "log_en" not in message
        assert len(message["log"]) == len(en["log"]) > 0
        text = json.dumps(message, ensure_ascii=False)
        for e, mine in zip(en["log"], message["log"], strict=True):
            assert (mine["m"], mine["a"]) == (e["m"], e["a"])
            if e["t"] != e["m"]:
                assert mine["t"] != e["t"] and e["t"] not in text, e
        assert message["prompt"] != en["prompt"] and en["prompt"] not in text
        assert message["prompt_message"] == en["prompt_message"] and message["prompt_message"]["m"]
        assert [i.get("message") for i in message["legal"]] == [i.get("message") for i in en["legal"]]
        assert message["log"][0]["t"].startswith("Przygotowanie gry")


def test_freedom_prompts_carry_their_message_and_render_in_polish_from_it() -> None:
    """Every prompt and label of a few random games that the rules word from a message renders from it: in
    English as the rules said it, in Polish without any English left (the game's text module, no re-parsing)."""
    from muster.games.freedom.texts import label_in, names, prompt_in
    from muster.i18n import message_of, render

    kinds: set[str] = set()
    for seed in range(3):
        g = Game(get_rules("freedom"), seed)
        chooser = random.Random(seed)
        while g.active_seat is not None:
            prompt, seat = g.prompt, g.active_seat
            message = message_of(prompt)
            if message is not None:
                kinds.add(message["m"])
                assert render(message, names("en")) == prompt
                polish = prompt_in(g.view(seat), seat, prompt, "pl")
                assert polish == render(message, names("pl")) and polish != prompt, prompt
            for action, label in g.labelled_actions():
                said = message_of(label)
                if said is not None:
                    kinds.add(said["m"])
                    assert render(said, names("en")) == label
                    assert label_in(action, seat, label, "pl") == render(said, names("pl")) != label
            g.apply(chooser.choice(g.legal_actions()))
    assert len(kinds) >= 11, kinds


@pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed")
def test_board_modules_classify_by_message_whatever_the_words(web: Server, browser: Any) -> None:
    """Each game's board module gives an entry the same place in the log (round, phase, card, side) and the same
    dice in English, in Polish and with its words blanked out."""
    games = {"freedom": [played("freedom", seed) for seed in (1, 2)],
             "hellenes": [played("hellenes", seed, {"years": "1"}) for seed in (1, 2)]}
    page = browser.new_page()
    page.goto(f"{web.url}/")
    for name, plays in games.items():
        en = [e for g in plays for e in wire_log(g, "en")]
        pl = [e for g in plays for e in wire_log(g, "pl")]
        seen = page.evaluate("""async ([name, en, pl]) => {
          const board = await import(`/static/games/${name}/board.js`);
          const read = (e) => JSON.stringify([board.classify(e), board.dice ? board.dice(e) : null]);
          const blank = (e) => ({ ...e, t: "…" });
          const order = (entries) => (board.reorder ? board.reorder(entries) : entries).map((e) => e.m);
          return { same: en.map((e, k) => read(e) === read(pl[k]) && read(e) === read(blank(e))),
            levels: en.map((e) => board.classify(e).level), sides: en.map((e) => board.classify(e).side),
            dice: en.filter((e) => board.dice && board.dice(e)).length,
            ordered: JSON.stringify(order(en)) === JSON.stringify(order(pl.map(blank))) };
        }""", [name, en, pl])
        assert all(seen["same"]), name
        assert seen["ordered"], name
        levels = set(seen["levels"])
        assert {"round", "phase", "card", None} <= levels, (name, levels)
        assert {"athens", "sparta"} <= set(seen["sides"]) if name == "hellenes" else \
            {"imperial", "insurgent"} <= set(seen["sides"]), name
        if name == "freedom":
            assert seen["dice"] > 10
    page.close()


def test_a_polish_hellenes_seat_gets_polish_prompts_and_labels_and_no_english(server: Server) -> None:
    """Hellenes' prompts and choices travel as messages: a Polish seat gets them in Polish, the same message
    ids and arguments as an English seat, and none of the English words anywhere in its state message."""
    with server.client() as c:
        token = create(c, game="hellenes", athens="human", sparta="beginner", seed=7)["tokens"]["athens"]
        chooser = random.Random(7)
        seen: set[str] = set()
        for _ in range(12):
            en = state(c, token)
            deadline = time.monotonic() + 120  # the bot's turn: a generous wait on a loaded machine
            while not en["legal"] and not en["outcome"] and time.monotonic() < deadline:
                time.sleep(0.05)
                en = state(c, token)
            if en["outcome"]:
                break
            pl = c.get(f"/api/seat/{token}?lang=pl").json()
            assert pl["version"] == en["version"]
            text = json.dumps({k: v for k, v in pl.items() if k != "log"}, ensure_ascii=False)
            assert pl["prompt_message"] == en["prompt_message"] and en["prompt_message"]["m"]
            assert pl["prompt"] != en["prompt"] and en["prompt"] not in text, (en["prompt"], pl["prompt"])
            for mine, english in zip(pl["legal"], en["legal"], strict=True):
                assert mine["message"] == english["message"] and english["message"]["m"], english
                if english["label"] != english["message"]["m"]:  # a label with arguments: no English left in it
                    assert mine["label"] != english["label"] and f'"{english["label"]}"' not in text, english
            seen.add(pl["view"]["stack"][-1]["kind"])
            choice = chooser.choice(en["legal"])
            assert act(c, token, en["version"], choice["action"]).status_code == 200
        assert len(seen) >= 2, seen


def test_every_prompt_of_both_games_keeps_its_message() -> None:
    """The rules word every prompt from a message (an id and typed arguments): no front end has to put a
    prompt into another language from its English words, or show something else instead."""
    for name, options in (("freedom", None), ("hellenes", {"years": "1"})):
        for seed in (1, 2):
            g = Game(get_rules(name), seed, options)
            chooser = random.Random(seed)
            while g.active_seat is not None and len(g.actions) < 400:
                assert message_of(g.prompt) is not None, (name, g.prompt)
                g.apply(chooser.choice(g.legal_actions()))
