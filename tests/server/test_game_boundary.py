"""The server reaches every game through its module: the lobby's data, each game's static folder and rules pages,
its options and bot levels, and the parts a game may lack (analysis, hints), all without naming a game."""

from __future__ import annotations

import re
from typing import Any

from muster.core.registry import game_module, game_modules, game_names

from .helpers import Server, create


def test_meta_lists_every_registered_game_from_its_module(server: Server) -> None:
    with server.client() as c:
        meta = c.get("/api/meta").json()
        polish = c.get("/api/meta?lang=pl").json()
    assert [g["name"] for g in meta["games"]] == game_names() and meta["game"] == game_names()[0]
    for g in meta["games"]:
        module = game_module(g["name"])
        assert g["title"] == module.title and g["web"] is (module.web is not None)
        assert [lv["id"] for lv in g["levels"]] == [lv for lv in ("beginner", "standard", "strongest")
                                                    if lv in module.levels]
        assert [lv["description"] for lv in g["levels"]] == [p.description for p in module.levels.values()]
        assert g["analysis"] is (module.analysis is not None)
        assert g["board"] == f"/static/games/{g['name']}/board.js"
        assert g["rules"] == (f"/rules/{g['name']}" if module.rules_pages else None)
        assert set(g["seat_names"]) == set(g["seats"])
    titles = {g["name"]: g["title"] for g in polish["games"]}
    assert titles["hellenes"] == "Hellenowie: kampanie wojny peloponeskiej"  # in the game's own catalog


def test_each_game_serves_its_static_folder_with_the_shells_caching_and_policy(server: Server) -> None:
    with server.client() as c:
        shell = c.get("/static/play.js")
        for name, module in game_modules().items():
            board = c.get(f"/static/games/{name}/board.js")
            assert board.status_code == 200 and board.text == (module.static_dir / "board.js").read_text("utf-8")
            assert board.headers["content-type"].startswith(("text/javascript", "application/javascript"))
            # the same validators and security headers as the shell's own files
            assert "etag" in board.headers and "last-modified" in board.headers
            assert board.headers["content-security-policy"] == shell.headers["content-security-policy"]
            again = c.get(f"/static/games/{name}/board.js", headers={"If-None-Match": board.headers["etag"]})
            assert again.status_code == 304
        assert c.get("/static/games/hellenes/lobby.js").status_code == 200
        for path in ("/static/games/nogame/board.js", "/static/games/freedom/nothing.js", "/static/games/freedom/",
                     "/static/games/freedom/..%2Fweb.py", "/static/games/freedom/../web.py",
                     "/static/games/freedom/%2e%2e/module.py"):
            assert c.get(path).status_code == 404, path


def test_rules_pages_come_from_each_games_module_in_the_readers_language(server: Server) -> None:
    with server.client() as c:
        for name, module in game_modules().items():
            for lang, page in module.rules_pages.items():
                answer = c.get(f"/rules/{name}?lang={lang}")
                assert answer.status_code == 200 and answer.headers["cache-control"] == "no-cache"
                body = (module.static_dir / page).read_text("utf-8")
                assert answer.text == body.replace('<html lang="en">', f'<html lang="{lang}">', 1)
        assert c.get("/rules/nogame").status_code == 404


def test_options_come_from_the_game_and_unknown_ones_are_refused(server: Server) -> None:
    with server.client() as c:
        first = create(c, imperial="human", insurgent="beginner", seed=3, options={"ruleset": "1st"})
        short = create(c, imperial="human", insurgent="beginner", seed=3, ruleset="1st")
        plain = create(c, imperial="human", insurgent="beginner", seed=3)
        exported = [c.get(f"/api/games/{g['game_id']}/export", params={"token": g["tokens"]["imperial"]}).json()
                    for g in (first, short, plain)]
        assert [e["options"] for e in exported] == [{"ruleset": "1st"}, {"ruleset": "1st"}, {"ruleset": "2nd"}]
        for body in ({"options": {"quiet": "1"}}, {"options": {"ruleset": "3rd"}}, {"options": {"years": "1"}},
                     {"game": "hellenes", "athens": "human", "sparta": "beginner", "options": {"ruleset": "1st"}},
                     {"north": "human"}, {"options": {f"o{k}": "x" for k in range(20)}}):
            answer = c.post("/api/games", json={"imperial": "human", "insurgent": "beginner", **body})
            assert answer.status_code == 400, (body, answer.text)


def test_a_game_without_an_analysis_offers_no_analysis_and_no_hints(server: Server) -> None:
    bare = [name for name, module in game_modules().items() if module.analysis is None and module.web]
    assert bare, "every web game has an analysis now: pick another game for this test"
    game = bare[0]
    seats = game_module(game).rules_object.info.seats
    with server.client() as c:
        assert c.get(f"/api/game-data/{game}").json()["analysis"] is False
        freedom = c.get("/api/game-data/freedom").json()
        assert freedom["analysis"] is True and freedom["rules"] == "/rules/freedom"
        refused = c.post("/api/games", json={"game": game, seats[0]: "human", seats[1]: "beginner",
                                             "hints": seats[0], "bot_delay_ms": 0})
        assert refused.status_code == 400 and "no hints" in refused.json()["error"]
        made = create(c, game=game, **{seats[0]: "beginner", seats[1]: "beginner"}, seed=4)
        answer = c.get(f"/api/games/{made['game_id']}/analysis")
        assert answer.status_code == 404 and "no analysis" in answer.json()["error"]
        assert c.get(f"/api/games/{made['game_id']}/win-probability").status_code == 404
        mine = create(c, game=game, **{seats[0]: "human", seats[1]: "beginner"}, seed=4)
        hints = c.get(f"/api/seat/{mine['tokens'][seats[0]]}/hints")
        assert hints.status_code == 404 and "no hints" in hints.json()["error"]


def test_cards_are_served_per_game(server: Server) -> None:
    with server.client() as c:
        for name in game_names():
            data = c.get(f"/api/game-data/{name}").json()
            assert c.get(f"/api/cards/{name}").json() == data.get("cards", [])
        assert c.get("/api/cards").json() == c.get(f"/api/cards/{game_names()[0]}").json()
        assert c.get("/api/cards/nogame").status_code == 404


def test_the_lobby_offers_every_game_with_its_own_sides_levels_and_options(web: Server, browser: Any) -> None:
    context = browser.new_context(viewport={"width": 1440, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(web.url + "/")
    page.wait_for_selector("input[name=level]")
    with web.client() as c:
        meta = c.get("/api/meta").json()
    for g in (g for g in meta["games"] if g["web"]):
        page.check(f"input[name=game][value={g['name']}]")
        sides = page.locator("input[name=side]").evaluate_all("(inputs) => inputs.map((i) => i.value)")
        levels = page.locator("input[name=level]").evaluate_all("(inputs) => inputs.map((i) => i.value)")
        assert sides == g["seats"] and levels == [lv["id"] for lv in g["levels"]]
        assert page.locator("input[name=level]:checked").count() == 1
        assert page.locator("[data-option]").evaluate_all("(s) => s.map((x) => x.dataset.option)") == list(g["options"])
        assert page.is_visible("#hints-field") is g["analysis"]
        assert (page.get_attribute("#rules-top", "href") == g["rules"]) if g["rules"] else page.is_hidden("#rules-top")
        assert page.text_content("#game-title") == g["title"] and page.title() == f"muster: {g['title']}"
    # the Freedom! rules edition chosen under Advanced reaches the new game
    page.check("input[name=game][value=freedom]")
    page.check("#level-beginner")
    page.click("details.advanced summary")
    assert page.text_content("#option-ruleset") == "2nd edition1st edition"
    page.select_option("#option-ruleset", "1st")
    page.fill("#seed", "3")
    page.fill("#delay", "0")
    page.click("#create")
    page.wait_for_url(re.compile(r"/play/"))
    token = page.url.rsplit("/", 1)[-1]
    page.wait_for_selector("#status[data-version]")
    options = page.evaluate(f"fetch('/api/seat/{token}').then((r) => r.json()).then((s) => s.view.ruleset)")
    assert options == "1st" and not errors
    context.close()
