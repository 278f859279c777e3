"""Languages on the web: the reader's language from ?lang=, a cookie or Accept-Language; each seat its own."""

from __future__ import annotations

from .helpers import Server, act, create, state, ws_connect, ws_recv


def test_pages_follow_accept_language_and_remember_an_explicit_choice(server: Server) -> None:
    with server.client() as c:
        page = c.get("/", headers={"Accept-Language": "pl-PL,pl;q=0.9,en;q=0.5"})
        assert '<html lang="pl">' in page.text and "muster_lang" not in page.headers.get("set-cookie", "")
        assert '<html lang="en">' in c.get("/", headers={"Accept-Language": "de,en;q=0.3"}).text
        chosen = c.get("/rules/freedom?lang=pl")
        assert '<html lang="pl">' in chosen.text and "muster_lang=pl" in chosen.headers["set-cookie"]
        assert "Przebieg rundy" in chosen.text and "Nacisk na rząd o pomoc" in chosen.text  # the Polish summary
        # the cookie now wins over the header
        assert '<html lang="pl">' in c.get("/", headers={"Accept-Language": "en"}).text
        assert '<html lang="en">' in c.get("/?lang=en").text
        assert '<html lang="en">' in c.get("/?lang=xx").text  # unknown: ignored, the cookie says en now


def test_cards_and_board_names_in_polish(server: Server) -> None:
    with server.client() as c:
        pl = {card["number"]: card for card in c.get("/api/cards?lang=pl").json()}
        en = {card["number"]: card for card in c.get("/api/cards?lang=en").json()}
        data = c.get("/api/game-data/freedom?lang=pl").json()
    assert pl[30]["name"] == "Ucieczka greckiej floty" and en[30]["name"] == "Fleet's Departure"
    # every card's historical note in the reader's language
    assert en[30]["note"] == "Miaoulis' squadron sailed away without warning, leaving the town alone."
    assert pl[30]["note"] == "Eskadra Miaulisa odpłynęła bez uprzedzenia, zostawiając miasto samo."
    assert all(pl[n]["note"] and pl[n]["note"] != en[n]["note"] for n in en)
    assert pl[30]["text"] != en[30]["text"] and len(pl) == len(en) == 100
    assert data["lang"] == "pl" and data["seats"]["insurgent"]["name"] == "Grecy"
    assert {a["name"] for a in data["areas"]} >= {"Morze", "Guria"}
    assert any(sp["log_name"] == "Obóz Kütahiego" for sp in data["spaces"])


def test_each_area_tile_says_what_each_side_gets_from_it(server: Server) -> None:
    # rule 4.5: the tile's reward goes to the side whose face is up; the board's hover text shows both faces.
    with server.client() as c:
        en = {a["id"]: a for a in c.get("/api/game-data/freedom?lang=en").json()["areas"]}
        pl = {a["id"]: a for a in c.get("/api/game-data/freedom?lang=pl").json()["areas"]}
    assert en["sea"]["reward_text"] == {"imperial": "3 Supplies, 3 units land at Vasiladi roadstead",
                                        "insurgent": "3 Supplies"}
    assert en["patra"]["reward_text"]["imperial"] == ("3 Supplies, a cannon to the Camp, "
                                                      "3 units land at Vasiladi roadstead")
    assert all(a["reward_text"]["imperial"] != en[k]["reward_text"]["imperial"] for k, a in pl.items())


def test_the_browser_catalog_matches_the_server_catalog(server: Server) -> None:
    with server.client() as c:
        pl = c.get("/api/i18n/pl").json()
        assert c.get("/api/i18n/xx").status_code == 404
    assert pl["lang"] == "pl" and pl["plural_categories"] == ["one", "few", "many"]
    assert pl["messages"]["{n} hit"] == ["{n} trafienie", "{n} trafienia", "{n} trafień"]


def test_each_player_reads_the_game_in_their_own_language(server: Server) -> None:
    with server.client() as c:
        made = create(c, imperial="human", insurgent="human")
        tokens = made["tokens"]
        en = state(c, tokens["imperial"])
        pl = c.get(f"/api/seat/{tokens['insurgent']}?lang=pl").json()
    assert en["lang"] == "en" and pl["lang"] == "pl"
    assert en["log"][0]["t"].startswith("Setup (2nd edition rules)")
    assert pl["log"][0]["t"].startswith("Przygotowanie gry (zasady 2. wydania)")
    # the same entries (message ids and arguments) in both, each worded in its reader's language
    assert [(e["m"], e["a"]) for e in en["log"]] == [(e["m"], e["a"]) for e in pl["log"]]
    with ws_connect(server.ws_url, tokens["insurgent"], "?lang=pl") as ws_pl, \
            ws_connect(server.ws_url, tokens["imperial"]) as ws_en:
        first_pl, first_en = ws_recv(ws_pl, "state"), ws_recv(ws_en, "state")
    assert first_pl["log"][0]["t"].startswith("Przygotowanie gry") and first_en["log"][0]["t"].startswith("Setup")


def test_refusals_keep_their_code_and_speak_the_readers_language(server: Server) -> None:
    with server.client() as c:
        pl = c.get("/api/seat/no-such-token?lang=pl")
        en = c.get("/api/seat/no-such-token", headers={"Accept-Language": "en"})
        made = create(c, imperial="human", insurgent="human")
        imperial = made["tokens"]["imperial"]
        with ws_connect(server.ws_url, made["tokens"]["insurgent"], "?lang=pl") as ws:
            first = ws_recv(ws, "state")
            ws.send('{"type": "action", "id": 1, "version": ' + str(first["version"]) + ', "action": ["pass", null]}')
            refused = ws_recv(ws, "error")
        assert c.get(f"/api/seat/{imperial}").status_code == 200
    assert pl.status_code == en.status_code == 404
    assert pl.json()["code"] == en.json()["code"] == "not_found"
    assert pl.json()["error"] == "nieznany token strony" and en.json()["error"] == "unknown seat token"
    assert refused["code"] == "wrong_seat" and refused["error"].startswith("to nie jest kolej: Grecy")


def test_freedoms_menus_and_targets_arrive_in_polish_with_their_message(server: Server) -> None:
    """A Polish seat's pushed choices are Polish words rendered from the rules' message, which travels beside
    them: the Allied units' targets, the card choice, the AP menu and a Support's areas, with no English left."""
    from muster.games.freedom.texts import names
    from muster.i18n import render

    english, polish = names("en"), names("pl")
    wanted = {"place_allied": "to", "card": "ap", "menu": "support", "area": "to"}  # kind of decision: a verb in it
    seen: set[str] = set()
    with server.client() as c:
        token = create(c, imperial="human", insurgent="beginner", seed=7)["tokens"]["imperial"]
        with ws_connect(server.ws_url, token, "?lang=pl") as ws:
            version = None
            for _ in range(300):
                pushed = ws_recv(ws, "state", timeout=60)
                if not pushed["legal"] or pushed["version"] == version:
                    assert not pushed["outcome"], "the game ended before every kind of choice was seen"
                    continue
                assert pushed["lang"] == "pl"
                verbs = {item["action"][0] for item in pushed["legal"]}
                for item in pushed["legal"]:
                    message = item["message"]
                    assert item["label"] == render(message, polish), item
                    assert render(message, english) not in item["label"], item
                kind = ("menu" if "support" in verbs else "card" if "ap" in verbs else
                        "area" if any(item["message"]["m"] == "to {area}" for item in pushed["legal"]) else
                        "place_allied" if any(item["message"]["m"] == "place an Allied unit in {space}"
                                              for item in pushed["legal"]) else None)
                if kind is not None:
                    assert wanted[kind] in verbs
                    seen.add(kind)
                if seen == set(wanted):
                    break
                # on towards the AP menu: play a card for its AP, buy a Support, else take the last choice
                pick = next((item for verb in ("support", "ap") for item in pushed["legal"]
                             if item["action"][0] == verb), pushed["legal"][-1])
                version = pushed["version"]
                assert act(c, token, version, pick["action"]).status_code == 200
    assert seen == set(wanted), seen
