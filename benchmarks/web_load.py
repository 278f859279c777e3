"""Cold first load of a game page, and the size of the shipped JS and CSS.

Starts ``muster serve`` on a free port, creates a game against a bot, and opens its page in a fresh
headless Chromium context each time (empty cache), reading the time from navigation start to the
page's first full drawing (``performance.mark("muster:drawn")`` in play.js: board, hand, tracks,
log). Prints a table, then one JSON line.

    PYTHONPATH=src python benchmarks/web_load.py [--loads 5]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
from playwright.sync_api import sync_playwright

from muster.core.registry import game_modules

ROOT = Path(__file__).resolve().parents[1]
STATIC = ROOT / "src" / "muster" / "server" / "static"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]


def static_bytes() -> dict[str, int]:
    """Uncompressed bytes of every JS and CSS file the pages load: the shell's and every game's static folder."""
    folders = [STATIC, *(m.static_dir for m in game_modules().values())]
    files = [p for folder in folders for p in folder.rglob("*") if p.suffix in (".js", ".css")]
    return {"js": sum(p.stat().st_size for p in files if p.suffix == ".js"),
            "css": sum(p.stat().st_size for p in files if p.suffix == ".css")}


def main() -> None:
    parser = argparse.ArgumentParser(description="cold first load of a game page")
    parser.add_argument("--loads", type=int, default=5)
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT / "tests" / "server"))
    from helpers import free_port  # type: ignore[import-not-found]

    tmp = Path(tempfile.mkdtemp(prefix="muster-load-"))
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = subprocess.Popen([sys.executable, "-m", "muster.cli.main", "serve", "--port", str(port),
                               "--database-url", f"sqlite:///{tmp / 'muster.db'}"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    times: list[float] = []
    try:
        for _ in range(300):
            try:
                if httpx.get(base + "/api/meta", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        with httpx.Client(base_url=base) as client:  # the seat belongs to this client's device session
            made = client.post("/api/games", json={"imperial": "human", "insurgent": "standard", "seed": 1}).json()
            device = [{"name": "muster_device", "value": client.cookies["muster_device"], "url": base}]
        url = base + made["links"]["imperial"]
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", headless=True, args=ARGS)
            for _ in range(args.loads):
                context = browser.new_context(viewport={"width": 1440, "height": 900})  # empty cache
                context.add_cookies(device)
                page = context.new_page()
                page.goto(url)
                page.wait_for_function("() => performance.getEntriesByName('muster:drawn').length > 0", timeout=10000)
                times.append(page.evaluate("performance.getEntriesByName('muster:drawn')[0].startTime"))
                context.close()
            browser.close()
    finally:
        server.terminate()
        server.wait(10)
    sizes = static_bytes()
    print(f"cold loads (ms): {', '.join(f'{t:.0f}' for t in times)}")
    print(f"static JS {sizes['js']:,} B + CSS {sizes['css']:,} B = {sizes['js'] + sizes['css']:,} B uncompressed")
    print(json.dumps({"cold_load_ms_median": round(statistics.median(times), 1),
                      "cold_load_ms_max": round(max(times), 1),
                      "static_js_bytes": sizes["js"], "static_css_bytes": sizes["css"],
                      "static_total_bytes": sizes["js"] + sizes["css"]}))


if __name__ == "__main__":
    main()
