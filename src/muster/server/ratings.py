"""Ratings per game and per side, from rated games between two accounts (docs/web.md, "Ratings").

Both games are asymmetric, so a person has one rating for each side of each game: winning as the side that
wins more often says less, and rating the sides apart keeps that from being farmed. The maths is OpenSkill's
Plackett-Luce model (the ``openskill`` package), not our own: each rating is a mean ``mu`` and an uncertainty
``sigma``, shown as ``1500 + 60 × (mu − 3·sigma)`` (a new player shows 1500) and marked provisional while
``sigma`` is large.

A game counts when it was posted as rated in the lobby (or is the rematch of a rated game), both seats are held
by two different accounts, and it ended with a winner. Its ratings are settled once, by whichever request
first sees it finished (:func:`settle`): one conditional update decides which, on SQLite and PostgreSQL alike,
and every change is kept in ``rating_changes``.

Bots are not rated by games: they are shown with fixed ratings, per game and per level, from the lab's arena
between the levels (:func:`bot_ratings`), so a person can see roughly where the levels stand.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy import select, update
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from muster.ai.levels import levels_for
from muster.core import game_names
from muster.core.registry import game_module
from muster.server.accounts import name_key
from muster.server.db import (
    AccountRow,
    GameEndingRow,
    GameRow,
    PlayerNameRow,
    RatedGameRow,
    RatingChangeRow,
    RatingRow,
    SeatRow,
    utcnow,
)
from muster.server.endpoints import api, hub_of
from muster.server.hub import ApiError

MODEL = PlackettLuce()
"""The rating model (OpenSkill's defaults: mu 25, sigma 25/3)."""
PROVISIONAL_SIGMA = 6.0
"""A rating whose sigma is above this is shown as provisional (about the first ten games)."""
ARENA_FILE = "arena.json"
"""The arena between a game's levels, committed in the game's ``data/`` folder (``muster arena``'s summary)."""
ANCHOR_LEVEL = "standard"
"""The level shown at :data:`ANCHOR_RATING`; the others are placed from it by the arena's rating differences."""
ANCHOR_RATING = 1500
"""Where the anchor level is shown: a new person's rating, the Heuristic being a fair first opponent."""


@cache
def bot_ratings(game: str) -> dict[str, int]:
    """The fixed ratings of ``game``'s bot levels (level id → rating), never changed by games (bots play
    unrated): the arena's Bradley–Terry ratings (Elo scale) of the specs the levels play, shifted so that the
    Standard level shows :data:`ANCHOR_RATING`. A level the arena did not play (or a game without an arena) is
    left out; if the anchor was not played, so is everything."""
    try:
        arena = json.loads((game_module(game).data_dir / ARENA_FILE).read_text(encoding="utf-8"))
        elo = {str(r["bot"]): float(r["elo"]) for r in arena["ratings"]}
    except (OSError, ValueError, KeyError, TypeError):
        return {}
    specs = {found.id: found.spec_for(game) for found in levels_for(game)}
    anchor = elo.get(specs.get(ANCHOR_LEVEL, ""))
    if anchor is None:
        return {}
    return {level_id: round(ANCHOR_RATING + elo[spec] - anchor) for level_id, spec in specs.items() if spec in elo}


def shown(mu: float, sigma: float) -> int:
    """The rating a person sees: a conservative estimate (mu − 3 sigma) on a familiar scale."""
    return round(1500 + 60 * (mu - 3 * sigma))


def account_of(holder: str | None) -> int | None:
    """The account id of a seat's holder, or None for a guest (or nobody)."""
    if holder and holder.startswith("account:"):
        try:
            return int(holder.split(":", 1)[1])
        except ValueError:
            return None
    return None


def mark_rated(engine: Engine, game_id: str) -> None:
    """Record that a game counts for ratings (when it was created rated between two accounts)."""
    with Session(engine) as s, s.begin():
        if s.get(RatedGameRow, game_id) is None:
            s.add(RatedGameRow(game_id=game_id, applied_at=None))


def is_rated(engine: Engine, game_id: str) -> bool:
    """Whether a game counts for ratings."""
    with Session(engine) as s:
        return s.get(RatedGameRow, game_id) is not None


def settle(engine: Engine, game_id: str) -> bool:
    """Rate a finished rated game if nobody has yet; whether this call did it."""
    with Session(engine) as s, s.begin():
        game = s.get(GameRow, game_id)
        if game is None or game.status != "finished" or not game.winner:
            return False
        claimed = s.execute(update(RatedGameRow).where(RatedGameRow.game_id == game_id,
                                                       RatedGameRow.applied_at.is_(None))
                            .values(applied_at=utcnow()))
        if not claimed.rowcount:  # type: ignore[attr-defined]
            return False  # not rated, or already settled (by this or another process)
        seats = {r.seat: account_of(r.holder) for r in s.scalars(select(SeatRow).where(SeatRow.game_id == game_id))}
        accounts = [a for a in seats.values() if a is not None]
        if len(seats) != 2 or len(accounts) != 2 or len(set(accounts)) != 2 or game.winner not in seats:
            return True  # marked settled: it can never count
        loser = next(seat for seat in seats if seat != game.winner)
        rows = [_rating(s, seats[seat], game.game, seat) for seat in (game.winner, loser)]  # type: ignore[arg-type]
        before = [shown(r.mu, r.sigma) for r in rows]
        teams = MODEL.rate([[MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in rows], ranks=[1, 2])
        for row, team, old in zip(rows, teams, before, strict=True):
            row.mu, row.sigma, row.games, row.updated_at = team[0].mu, team[0].sigma, row.games + 1, utcnow()
            s.add(RatingChangeRow(game_id=game_id, account_id=row.account_id, side=row.side,
                                  before=old, after=shown(row.mu, row.sigma)))
        return True


def _rating(s: Session, account_id: int, game: str, side: str) -> RatingRow:
    row = s.get(RatingRow, (account_id, game, side), with_for_update=True)
    if row is None:
        fresh = MODEL.rating()
        row = RatingRow(account_id=account_id, game=game, side=side, mu=fresh.mu, sigma=fresh.sigma, games=0,
                        updated_at=utcnow())
        s.add(row)
    return row


def changes(engine: Engine, game_id: str) -> dict[str, dict[str, int]]:
    """The rating changes a game made, by side: ``{"before": …, "after": …}`` (empty if it made none)."""
    with Session(engine) as s:
        return {r.side: {"before": round(r.before), "after": round(r.after)}
                for r in s.scalars(select(RatingChangeRow).where(RatingChangeRow.game_id == game_id))}


def of_account(engine: Engine, account_id: int) -> list[dict[str, Any]]:
    """An account's ratings, one per game and side it has played rated."""
    with Session(engine) as s:
        rows = s.scalars(select(RatingRow).where(RatingRow.account_id == account_id)
                         .order_by(RatingRow.game, RatingRow.side)).all()
        return [{"game": r.game, "side": r.side, "rating": shown(r.mu, r.sigma), "games": r.games,
                 "provisional": r.sigma > PROVISIONAL_SIGMA} for r in rows]


def profile(engine: Engine, name: str) -> dict[str, Any] | None:
    """A person's public profile: name, ratings per game and side, and their latest finished games."""

    with Session(engine) as s:
        account = s.scalars(select(AccountRow).where(AccountRow.name_key == name_key(name.strip()))).first()
        if account is None or account.suspended:
            return None
        holder = f"account:{account.id}"
        rows = s.execute(select(SeatRow, GameRow).join(GameRow, GameRow.id == SeatRow.game_id)
                         .where(SeatRow.holder == holder, GameRow.status == "finished")
                         .order_by(GameRow.updated_at.desc()).limit(100)).all()
        ids = [g.id for _, g in rows]
        names = {(r.game_id, r.seat): r.name for r in s.scalars(select(PlayerNameRow)
                                                                .where(PlayerNameRow.game_id.in_(ids)))}
        kinds = {(r.game_id, r.seat): r for r in s.scalars(select(SeatRow).where(SeatRow.game_id.in_(ids)))}
        rated = set(s.scalars(select(RatedGameRow.game_id).where(RatedGameRow.game_id.in_(ids))))
        resigned = {r.game_id: r.seat for r in s.scalars(select(GameEndingRow).where(GameEndingRow.game_id.in_(ids)))}
        deltas = {r.game_id: (round(r.before), round(r.after)) for r in s.scalars(
            select(RatingChangeRow).where(RatingChangeRow.game_id.in_(ids), RatingChangeRow.account_id == account.id))}
    results = []
    for seat, game in rows:
        others = [r for (gid, _), r in kinds.items() if gid == game.id and r.seat != seat.seat]
        opponent = others[0] if others else None
        results.append({
            "game_id": game.id, "game": game.game, "seat": seat.seat,
            "result": "won" if game.winner == seat.seat else "lost" if game.winner else "draw",
            "opponent": (None if opponent is None else {"kind": opponent.kind, "seat": opponent.seat,
                                                        "name": names.get((game.id, opponent.seat))}),
            "resigned": resigned.get(game.id), "rated": game.id in rated,
            "rating": None if game.id not in deltas else {"before": deltas[game.id][0], "after": deltas[game.id][1]},
        })
    won = sum(r["result"] == "won" for r in results)
    return {"name": account.name, "ratings": of_account(engine, account.id), "results": results,
            "won": won, "lost": sum(r["result"] == "lost" for r in results),
            "bots": [{"game": g, "level": level, "rating": value}
                     for g in game_names() for level, value in bot_ratings(g).items()]}


async def profile_endpoint(request: Any) -> Any:
    """A person's profile (ratings and results), by account name."""
    from anyio import to_thread
    from starlette.responses import JSONResponse


    name = request.path_params["name"]
    found = await to_thread.run_sync(profile, hub_of(request).store.engine, name) if len(name) <= 40 else None
    if found is None:
        raise ApiError(404, "not_found", "no such player")
    return JSONResponse(found)


def routes(page: Any) -> list[Any]:
    """The profile routes, for :func:`muster.server.app.create_app` (``page`` serves a static page)."""
    from starlette.routing import Route


    return [Route("/profile/{name}", page("profile.html")), Route("/api/profile/{name}", api(profile_endpoint))]
