"""Moderation over the database (``muster admin``): list accounts and games, suspend, delete."""

from __future__ import annotations

from typing import Any

from sqlalchemy import delete, func, select, update

from muster.server.accounts import AccountStore
from muster.server.db import AccountRow, AccountSessionRow, ActionRow, GameRow, PlayerNameRow, SeatRow


def list_users(store: AccountStore, limit: int) -> list[dict[str, Any]]:
    """Accounts, newest first: name, when created, how many games, suspended or not."""
    with store.session() as s:
        counts = dict(s.execute(select(SeatRow.holder, func.count()).where(SeatRow.holder.like("account:%"))
                                .group_by(SeatRow.holder)).all())
        rows = s.scalars(select(AccountRow).order_by(AccountRow.id.desc()).limit(limit)).all()
        return [{"name": r.name, "created_at": r.created_at.isoformat(timespec="seconds"),
                 "games": int(counts.get(f"account:{r.id}", 0)), "suspended": r.suspended} for r in rows]


def set_suspended(store: AccountStore, account_id: int, suspended: bool) -> None:
    """Suspend an account (ending every sign-in it has) or lift its suspension."""
    with store.session() as s, s.begin():
        s.execute(update(AccountRow).where(AccountRow.id == account_id).values(suspended=suspended))
        if suspended:
            s.execute(delete(AccountSessionRow).where(AccountSessionRow.account_id == account_id))


def list_games(store: AccountStore, account_id: int | None, limit: int) -> list[dict[str, Any]]:
    """Games, newest first (only the account's when given), with who plays them in words."""
    with store.session() as s:
        query = select(GameRow).order_by(GameRow.updated_at.desc()).limit(limit)
        if account_id is not None:
            held = select(SeatRow.game_id).where(SeatRow.holder == f"account:{account_id}")
            query = query.where(GameRow.id.in_(held))
        games = s.scalars(query).all()
        ids = [g.id for g in games]
        accounts = {f"account:{a.id}": a.name for a in s.scalars(select(AccountRow))} if ids else {}
        names = {(n.game_id, n.seat): n.name for n in s.scalars(select(PlayerNameRow)
                                                                .where(PlayerNameRow.game_id.in_(ids)))}
        players: dict[str, list[str]] = {}
        for seat in s.scalars(select(SeatRow).where(SeatRow.game_id.in_(ids)).order_by(SeatRow.seat)):
            who = (f"bot {seat.bot_spec}" if seat.kind == "bot" else accounts.get(seat.holder or "")
                   or names.get((seat.game_id, seat.seat)) or ("guest" if seat.token_hash else "invited"))
            players.setdefault(seat.game_id, []).append(f"{seat.seat}={who}")
        return [{"game_id": g.id, "game": g.game, "status": g.status, "steps": g.steps,
                 "updated_at": g.updated_at.isoformat(timespec="seconds") if g.updated_at else "",
                 "players": ", ".join(players.get(g.id, []))} for g in games]


def delete_game(store: AccountStore, game_id: str) -> bool:
    """Delete a game with its actions, seats and everything else stored with it; False if there is none."""
    with store.session() as s, s.begin():
        s.execute(delete(ActionRow).where(ActionRow.game_id == game_id))
        done = s.execute(delete(GameRow).where(GameRow.id == game_id))  # seats, names, tokens, leases cascade
        return bool(done.rowcount)  # type: ignore[attr-defined]
