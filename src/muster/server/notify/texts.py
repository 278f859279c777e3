"""The words of every notice, in the recipient's language (English or Polish, through the shared catalog).

Each kind of notice has a one-line title (the e-mail's subject, the webhook's and push message's text) and
a body for e-mail; both name the game by its title and id so a person playing several can tell them apart.
"""

from __future__ import annotations

from typing import Any

from muster.core import get_rules
from muster.i18n import Translator, translator


def game_title(tr: Translator, game: str | None) -> str:
    """A game's title in the reader's language (its code name if it is not installed)."""
    if not game:
        return "muster"
    try:
        return tr.gettext(get_rules(game).info.title)
    except Exception:  # a game stored by a module no longer installed
        return game


def title(kind: str, lang: str, args: dict[str, Any]) -> str:
    """The one-line text of a notice."""
    tr = translator(lang)
    name = game_title(tr, args.get("game"))
    gid = args.get("game_id", "")
    who = args.get("who") or tr.gettext("Your opponent")
    if kind == "your_turn":
        return tr.fmt("Your turn in {game} ({game_id})", game=name, game_id=gid)
    if kind == "game_started":
        return tr.fmt("{who} joined: {game} ({game_id}) has begun", who=who, game=name, game_id=gid)
    if kind == "invitation":
        return tr.fmt("{who} offers you a rematch of {game} ({game_id})", who=who, game=name, game_id=gid)
    if kind == "chat":
        return tr.fmt("{who} wrote in {game} ({game_id})", who=who, game=name, game_id=gid)
    if kind == "resigned":
        return tr.fmt("{who} resigned: you won {game} ({game_id})", who=who, game=name, game_id=gid)
    if kind == "game_over":
        if args.get("result") == "won":
            return tr.fmt("{game} ({game_id}) is over: you won", game=name, game_id=gid)
        if args.get("result") == "lost":
            return tr.fmt("{game} ({game_id}) is over: you lost", game=name, game_id=gid)
        return tr.fmt("{game} ({game_id}) is over", game=name, game_id=gid)
    if kind == "clock_low":
        return tr.fmt("Your clock in {game} ({game_id}) is running low", game=name, game_id=gid)
    if kind == "timeout":
        return tr.fmt("Time ran out in {game} ({game_id})", game=name, game_id=gid)
    if kind == "verify_email":
        return tr.gettext("Confirm your e-mail address for muster")
    if kind == "password_reset":
        return tr.gettext("Reset your muster password")
    if kind == "test":
        return tr.gettext("muster: notifications reach you here")
    return tr.fmt("News from {game} ({game_id})", game=name, game_id=gid)


def body(kind: str, lang: str, args: dict[str, Any], link: str | None, unsubscribe: str | None) -> str:
    """The plain-text body of an e-mail notice: its title, what to do, the link, and how to stop them."""
    tr = translator(lang)
    lines = [title(kind, lang, args), ""]
    if kind == "chat" and args.get("text"):
        lines += [f"> {args['text']}", ""]
    if kind == "verify_email":
        lines += [tr.gettext("Open this link to confirm that this address is yours (it works for two days):")]
    elif kind == "password_reset":
        lines += [tr.gettext("Open this link to choose a new password (it works once, for one hour). If you did "
                             "not ask for it, ignore this e-mail: your password stays as it is.")]
    elif kind in ("clock_low", "timeout") and args.get("left"):
        lines += [tr.fmt("Time left: {left}", left=args["left"])]
    if link:
        lines += [link]
    elif args.get("game_id"):
        lines += [tr.gettext("Open the game from the link you kept for it.")]
    if unsubscribe:
        lines += ["", "--", tr.gettext("You get this because you asked muster to tell you of your games."),
                  tr.fmt("Stop these e-mails: {link}", link=unsubscribe)]
    return "\n".join(lines) + "\n"


def digest(lang: str, titles: list[str], link: str | None, unsubscribe: str | None) -> tuple[str, str]:
    """(subject, body) of a digest e-mail gathering several notices."""
    tr = translator(lang)
    subject = tr.nfmt("muster: {n} notice", "muster: {n} notices", len(titles))
    lines = [subject, ""] + [f"- {t}" for t in titles]
    if link:
        lines += ["", link]
    if unsubscribe:
        lines += ["", "--", tr.fmt("Stop these e-mails: {link}", link=unsubscribe)]
    return subject, "\n".join(lines) + "\n"
