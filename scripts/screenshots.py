"""Regenerate the web app's screenshot gallery in docs/screenshots/ (shown in docs/web.md).

Starts a real ``muster serve`` on a free port with a throwaway SQLite database, plays games through
the API and the page, and photographs them in Debian's headless Chromium at desktop (1440×900) and
phone (390×844) sizes. Run from the repository root:

    PYTHONPATH=src python scripts/screenshots.py [--out docs/screenshots]
"""

from __future__ import annotations

import argparse
import json
import random
import secrets
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Page, sync_playwright

from muster.ai import make_bot
from muster.core import Action

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]
DESKTOP = {"width": 1440, "height": 900}
PHONE = {"width": 390, "height": 844}


DEVICE = {"muster_device": secrets.token_urlsafe(32)}
"""The device session these shots play as: the games' seats are bound to it, and every page opening one carries it."""


def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Driver:
    """Plays one seat through the JSON API (random legal choices, a few preferences)."""

    def __init__(self, base: str, token: str, seed: int = 1, bot: str | None = None) -> None:
        self.client = httpx.Client(base_url=base, timeout=30, cookies=DEVICE)
        self.token = token
        self.rng = random.Random(seed)
        self.bot = make_bot(bot, seed=seed, game="freedom") if bot else None

    def pick(self, st: dict[str, Any]) -> Any:
        """The action to take: the bot's choice if there is a bot, else a random one (never ending early)."""
        if self.bot is not None:
            legal = [Action.from_json(i["action"]) for i in st["legal"]]
            view = {**st["view"], "log": []}  # the state message carries the log beside the view
            return self.bot.choose(view, legal, st["seat"]).to_json()
        choices = [i for i in st["legal"] if i["action"][0] not in ("end", "done")] or st["legal"]
        return self.rng.choice(choices)["action"]

    def state(self) -> dict[str, Any]:
        """The seat's state now."""
        data: dict[str, Any] = self.client.get(f"/api/seat/{self.token}").json()
        return data

    def until(self, done: Any, limit: float = 120) -> dict[str, Any]:
        """Act (randomly, never ending a turn early) until ``done(state)`` holds on my turn."""
        deadline = time.monotonic() + limit
        while time.monotonic() < deadline:
            st = self.state()
            if st["outcome"] or (st["legal"] and done(st)):
                return st
            if st["legal"]:
                body = {"version": st["version"], "action": self.pick(st)}
                self.client.post(f"/api/seat/{self.token}/action", json=body)
            else:
                time.sleep(0.05)
        raise TimeoutError("the game never reached the wanted position")


def settle(page: Page) -> None:
    """Wait until the page shows a state and its fonts and drawing are done."""
    page.wait_for_selector("#status[data-version]")
    page.wait_for_timeout(400)


def open_seat(page: Page, base: str, token: str) -> None:
    """Open a seat's game page (as the browser holding the seat) and wait for it to be drawn."""
    page.context.add_cookies([{"name": name, "value": value, "url": base} for name, value in DEVICE.items()])
    page.goto(f"{base}/play/{token}")
    settle(page)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="docs/screenshots", type=Path)
    parser.add_argument("--only", choices=("all", "hellenes", "polish", "hellenes-pl", "online"), default="all",
                        help="take every picture, or only the Hellenes ones, or only the Polish ones (pl-*.png), "
                             "or only Hellenes in Polish, or only the pages of play over days (clock, notices)")
    args = parser.parse_args()
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix="muster-shots-"))
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = subprocess.Popen([sys.executable, "-m", "muster.cli.main", "serve", "--port", str(port),
                               "--database-url", f"sqlite:///{tmp / 'muster.db'}", "--bot-delay-ms", "0"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    try:
        for _ in range(300):
            try:
                if httpx.get(base + "/api/meta", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        if args.only == "all":
            shots(base, out)
        if args.only in ("all", "hellenes"):
            hellenes_shots(base, out)
        if args.only in ("all", "polish"):
            polish_shots(base, out)
        if args.only in ("all", "polish", "hellenes-pl"):
            hellenes_polish_shots(base, out)
        if args.only in ("all", "online"):
            online_shots(base, out)
    finally:
        server.terminate()
        server.wait(10)


def shot(page: Page, out: Path, name: str, **kw: Any) -> None:
    """Save one screenshot and say so."""
    page.screenshot(path=str(out / name), **kw)
    print(out / name)


def shots(base: str, out: Path) -> None:
    """Take every picture of the gallery."""
    api = httpx.Client(base_url=base, timeout=30, cookies=DEVICE)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        page = browser.new_page(viewport=DESKTOP)

        page.goto(base + "/")
        page.wait_for_selector("#level-strongest")
        page.fill("#name", "Anna")
        shot(page, out, "lobby.png")
        page.goto(base + "/rules/freedom")
        shot(page, out, "rules.png")

        # An Imperial game against the Standard bot: the Opening, with a unit picked
        made = api.post("/api/games", json={"imperial": "human", "insurgent": "standard", "seed": 7,
                                            "bot_delay_ms": 0, "names": {"imperial": "Anna"}}).json()
        token = made["tokens"]["imperial"]
        open_seat(page, base, token)
        page.click("#board g.space.legal >> nth=3")
        settle(page)
        shot(page, out, "opening.png")
        page.click("#board g.space.legal >> nth=0")
        settle(page)
        page.click("#actions button[data-verb=done]")
        page.wait_for_selector(".hand-card.legal")
        settle(page)

        # The Action phase: a card's menu, then the warning before giving the opponent an event
        opponent_colour = page.locator(".hand-card.legal.side-blue")
        target = opponent_colour.first if opponent_colour.count() else page.locator(".hand-card.legal").first
        target.click()
        page.wait_for_selector("#card-menu .menu-item")
        shot(page, out, "card-menu.png")
        page.keyboard.press("Escape")
        own = page.locator(".hand-card.legal.side-red")  # an event of one's own colour: its text in the menu
        if own.count():
            own.first.click()
            page.wait_for_selector("#card-menu .menu-item[data-verb=event]")
            shot(page, out, "card-menu-event.png")
            page.keyboard.press("Escape")
        target.click()
        page.wait_for_selector("#card-menu .menu-item")
        ap = page.locator("#card-menu .menu-item[data-verb=ap]")
        if ap.count():
            ap.click()
            if page.locator("#card-menu [data-confirm=yes]").count():
                shot(page, out, "card-warning.png")
                page.click("#card-menu [data-confirm=yes]")
        else:
            page.click("#card-menu .menu-item >> nth=0")
        settle(page)
        move = page.locator("#actions button[data-verb=move]")
        if move.count():
            move.click()
            settle(page)
            page.click("#board g.space.legal >> nth=4")
            settle(page)
            shot(page, out, "action-targets.png")

        # The opponent's card marked on the map; the log with a card's face
        driver = Driver(base, token)
        driver.until(lambda st: st["last"]["actions"] and st["phase"] == "Action phase"
                     and any(a["action"][0] == "from" for a in st["last"]["actions"]))
        open_seat(page, base, token)
        shot(page, out, "opponent-moves.png")
        page.hover("#log .log-card:last-child .card-link")
        page.wait_for_selector("#card-tip .card-face", state="visible")
        shot(page, out, "log.png", clip={"x": 700, "y": 0, "width": 740, "height": 900})
        page.mouse.move(10, 10)
        driver.until(lambda st: st["phase"] == "Cannon fire")
        open_seat(page, base, token)
        shot(page, out, "cannons.png")
        driver.until(lambda st: st["round"] >= 2 and st["phase"] == "Action phase")
        open_seat(page, base, token)
        shot(page, out, "round-2.png")

        # The Insurgent side (played here by the Standard bot's choices) against the Strongest bot
        made = api.post("/api/games", json={"insurgent": "human", "imperial": "strongest", "seed": 3,
                                            "bot_delay_ms": 0, "names": {"insurgent": "Notis"}}).json()
        ins = made["tokens"]["insurgent"]
        Driver(base, ins, 2, bot="heuristic").until(lambda st: st["phase"] == "Replenishment" or st["round"] >= 2,
                                                    limit=300)
        open_seat(page, base, ins)
        shot(page, out, "insurgent-replenishment.png")

        # Two bots, then the replay
        made = api.post("/api/games", json={"imperial": "beginner", "insurgent": "beginner", "seed": 5,
                                            "bot_delay_ms": 0}).json()
        for _ in range(600):
            if api.get(f"/api/games/{made['game_id']}/status").json()["status"] == "finished":
                break
            time.sleep(0.1)
        page.goto(f"{base}/replay/{made['game_id']}")
        page.wait_for_function("() => /step [1-9]\\d* \\/ /.test(document.querySelector('#step').textContent)")
        page.wait_for_timeout(500)
        shot(page, out, "replay.png")

        # The post-game analysis of that game (curve and turning points)
        page.goto(f"{base}/analysis/{made['game_id']}")
        page.wait_for_function("() => document.body.dataset.ready === '1'", timeout=300000)
        shot(page, out, "analysis.png", full_page=True)

        # Hints in a game against the Standard bot, set at creation
        made = api.post("/api/games", json={"imperial": "human", "insurgent": "standard", "seed": 11,
                                            "bot_delay_ms": 0, "hints": "imperial"}).json()
        open_seat(page, base, made["tokens"]["imperial"])
        page.wait_for_selector("#hints-ask", timeout=30000)
        page.click("#hints-ask")
        page.wait_for_function("() => document.querySelectorAll('#hints-list li').length >= 1", timeout=120000)
        shot(page, out, "hints.png")

        # The end of a game: its own screen (a game against the Beginner, played on at random)
        made = api.post("/api/games", json={"imperial": "human", "insurgent": "beginner", "seed": 4,
                                            "bot_delay_ms": 0, "names": {"imperial": "Anna"}}).json()
        over = made["tokens"]["imperial"]
        Driver(base, over, 4).until(lambda st: bool(st["outcome"]), limit=400)
        open_seat(page, base, over)
        page.wait_for_selector("#game-over", state="visible")
        shot(page, out, "game-over.png")

        # My games, with the seats this browser opened
        page.goto(base + "/")
        page.wait_for_selector("#my-games tbody tr")
        shot(page, out, "my-games.png")

        # A phone
        phone = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, device_scale_factor=2).new_page()
        made = api.post("/api/games", json={"imperial": "human", "insurgent": "standard", "seed": 11,
                                            "bot_delay_ms": 0}).json()
        token = made["tokens"]["imperial"]
        phone.goto(base + "/")
        phone.wait_for_selector("#level-strongest")
        shot(phone, out, "mobile-lobby.png")
        open_seat(phone, base, token)
        phone.tap("#board g.space.legal >> nth=2")
        settle(phone)
        shot(phone, out, "mobile-opening.png")
        phone.tap("#board g.space.legal >> nth=0")
        settle(phone)
        phone.tap("#actions button[data-verb=done]")
        phone.wait_for_selector("#hand-toggle.attention")
        phone.tap("#hand-toggle")
        settle(phone)
        shot(phone, out, "mobile-hand.png")
        phone.tap("#hand .hand-card.legal >> nth=0")
        phone.wait_for_selector("#card-menu .menu-item")
        shot(phone, out, "mobile-card-menu.png")
        ap = phone.locator("#card-menu .menu-item[data-verb=ap]")  # spending AP: the choices in one row
        (ap if ap.count() else phone.locator("#card-menu .menu-item").first).tap()
        if phone.locator("#card-menu [data-confirm=yes]").count():
            phone.tap("#card-menu [data-confirm=yes]")
        settle(phone)
        shot(phone, out, "mobile-actions.png")
        open_seat(phone, base, over)
        phone.wait_for_selector("#game-over", state="visible")
        shot(phone, out, "mobile-game-over.png")
        browser.close()


def online_shots(base: str, out: Path) -> None:
    """Play over days: a game with a live clock, and the notification settings of an account (desktop, phone)."""
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        page = browser.new_page(viewport=DESKTOP)
        page.goto(base + "/")
        token = page.evaluate("""async () => {
          const post = (path, body) => fetch(path, {method: "POST", headers: {"Content-Type": "application/json"},
            body: JSON.stringify(body)}).then((r) => r.json());
          const made = await post("/api/games", {imperial: "human", insurgent: "human", seat: "imperial",
            pace: "live", bot_delay_ms: 0});
          await post(`/api/invitations/${made.invitations.insurgent}/claim`, {});
          return made.tokens.imperial;
        }""")
        page.goto(f"{base}/play/{token}")  # this browser holds both seats (it made the game and took the invitation)
        settle(page)
        page.wait_for_selector("#clock .clock-seat.running .clock-time")
        settle(page)
        shot(page, out, "clock.png")
        for name, viewport in (("notifications.png", DESKTOP), ("mobile-notifications.png", PHONE)):
            context = browser.new_context(viewport=viewport)
            page = context.new_page()
            page.goto(base + "/account")
            page.fill("#signup-name", "n" + secrets.token_hex(4))
            page.fill("#signup-password", "pw-" + secrets.token_hex(8))
            page.click("#signup-form button")
            page.wait_for_selector("#settings:not([hidden])")
            page.goto(base + "/notifications")
            page.wait_for_selector("#email-your_turn")
            shot(page, out, name, full_page=viewport is PHONE)
            context.close()
        browser.close()


def hellenes_shots(base: str, out: Path) -> None:
    """Hellenes: the lobby with the game chosen, the map in a Season, the battle odds before engaging, the battle
    dice in the log and a finished game's review."""
    api = httpx.Client(base_url=base, timeout=30, cookies=DEVICE)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        page = browser.new_page(viewport=DESKTOP)
        page.goto(base + "/")
        page.wait_for_selector("#level-strongest")
        page.check("input[name=game][value=hellenes]")
        shot(page, out, "hellenes-lobby.png")
        made = api.post("/api/games", json={"game": "hellenes", "athens": "human", "sparta": "standard",
                                            "seed": 3, "bot_delay_ms": 0}).json()
        token = made["tokens"]["athens"]
        driver = Driver(base, token, seed=2)
        driver.until(lambda st: st["view"]["season"] >= 0 and st["view"]["stack"][-1]["kind"] == "actions")
        open_seat(page, base, token)
        shot(page, out, "hellenes.png")
        st = driver.until(lambda st: any(i.get("confirm", "").startswith("Battle odds") for i in st["legal"]),
                          limit=300)
        item = next(i for i in st["legal"] if i.get("confirm", "").startswith("Battle odds"))
        open_seat(page, base, token)
        page.click(f"#board g.legal[data-space={item['action'][1]}]")
        if page.locator(f"#card-menu .menu-item[data-verb={item['action'][0]}]").count():
            page.click(f"#card-menu .menu-item[data-verb={item['action'][0]}]")
        page.wait_for_selector("#card-menu [data-confirm=yes]")
        shot(page, out, "hellenes-odds.png")
        page.click("#card-menu [data-confirm=yes]")
        # the battle dice in the log, each die marked as a hit, a rout or a miss
        driver.until(lambda st: "fires: rolls" in json.dumps(st.get("log", [])), limit=300)
        open_seat(page, base, token)
        page.locator("#log .dice-line").last.scroll_into_view_if_needed()
        shot(page, out, "hellenes-dice.png")
        hellenes_analysis_shot(page, base, api, out)
        sortie_shots(browser, base, api, out)
        browser.close()


def hellenes_analysis_shot(page: Any, base: str, api: httpx.Client, out: Path) -> None:
    """The review of a finished Hellenes game between bots: Athens' chance turn by turn and the turning points."""
    watched = api.post("/api/games", json={"game": "hellenes", "athens": "beginner", "sparta": "beginner", "seed": 3,
                                           "bot_delay_ms": 0}).json()["game_id"]
    for _ in range(1200):
        if api.get(f"/api/games/{watched}/status").json()["status"] == "finished":
            break
        time.sleep(0.5)
    page.goto(f"{base}/analysis/{watched}")
    page.wait_for_selector("body[data-ready='1']", timeout=900_000)
    shot(page, out, "hellenes-analysis.png", full_page=True)


def sortie_shots(browser: Any, base: str, api: httpx.Client, out: Path) -> None:
    """Hellenes rules r3: Sparta asked whether besieged Potidaea sorties (8.3), on a desktop and a phone."""
    made = api.post("/api/games", json={"game": "hellenes", "athens": "standard", "sparta": "human",
                                        "seed": 3, "bot_delay_ms": 0}).json()
    token = made["tokens"]["sparta"]
    Driver(base, token, seed=2).until(lambda st: st["view"]["stack"][-1]["kind"] == "sortie", limit=300)
    for name, viewport in (("hellenes-sortie.png", DESKTOP), ("mobile-hellenes-sortie.png", PHONE)):
        page = browser.new_page(viewport=viewport)
        open_seat(page, base, token)
        shot(page, out, name)
        page.close()


def polish_shots(base: str, out: Path) -> None:
    """The Polish pictures: a browser whose language is Polish, on a desktop and a phone."""
    api = httpx.Client(base_url=base, timeout=30, cookies=DEVICE)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        page = browser.new_context(viewport=DESKTOP, locale="pl-PL").new_page()
        page.goto(base + "/")
        page.wait_for_selector("#level-strongest")
        shot(page, out, "pl-lobby.png")
        made = api.post("/api/games", json={"imperial": "human", "insurgent": "standard", "seed": 11,
                                            "bot_delay_ms": 0, "names": {"imperial": "Kütahi"}}).json()
        token = made["tokens"]["imperial"]
        driver = Driver(base, token)
        driver.until(lambda st: st["phase"] == "Action phase" and st["last"]["actions"])
        open_seat(page, base, token)
        shot(page, out, "pl-action-phase.png")
        driver.until(lambda st: st["round"] >= 2 and st["phase"] == "Action phase")
        open_seat(page, base, token)
        shot(page, out, "pl-round-2.png")
        shot(page, out, "pl-log.png", clip={"x": 700, "y": 0, "width": 740, "height": 900})
        page.goto(base + "/rules/freedom?lang=pl")
        shot(page, out, "pl-rules.png")
        phone = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, device_scale_factor=2,
                                    locale="pl-PL").new_page()
        open_seat(phone, base, token)
        shot(phone, out, "pl-mobile-play.png")
        phone.tap("#hand-toggle")
        settle(phone)
        shot(phone, out, "pl-mobile-hand.png")
        phone.goto(base + "/")
        phone.wait_for_selector("#level-strongest")
        shot(phone, out, "pl-mobile-lobby.png")
        # a finished game between bots: its replay and its analysis, in Polish
        watched = api.post("/api/games", json={"imperial": "beginner", "insurgent": "beginner", "seed": 3,
                                               "bot_delay_ms": 0}).json()["game_id"]
        for _ in range(600):
            if api.get(f"/api/games/{watched}/status").json()["status"] == "finished":
                break
            time.sleep(0.5)
        page.goto(f"{base}/replay/{watched}")
        page.wait_for_function("() => document.querySelector('#outcome').textContent.length > 0")
        page.wait_for_timeout(600)
        shot(page, out, "pl-replay.png")
        page.goto(f"{base}/analysis/{watched}")
        page.wait_for_selector("body[data-ready='1']", timeout=600_000)
        shot(page, out, "pl-analysis.png", full_page=True)
        browser.close()


def hellenes_polish_shots(base: str, out: Path) -> None:
    """Hellenes read in Polish: Athens's Action phase on a desktop whose browser asks for Polish."""
    api = httpx.Client(base_url=base, timeout=30, cookies=DEVICE)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        page = browser.new_context(viewport=DESKTOP, locale="pl-PL").new_page()
        made = api.post("/api/games", json={"game": "hellenes", "athens": "human", "sparta": "standard",
                                            "seed": 3, "bot_delay_ms": 0}).json()
        token = made["tokens"]["athens"]
        driver = Driver(base, token, seed=2)
        driver.until(lambda st: st["view"]["season"] >= 0 and st["view"]["stack"][-1]["kind"] == "actions")
        open_seat(page, base, token)
        shot(page, out, "pl-hellenes.png")
        browser.close()


if __name__ == "__main__":
    main()
