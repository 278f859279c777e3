"""Refusals (the server's and the hint consent's) in the reader's language.

An :class:`~muster.server.hub.ApiError` keeps its machine ``code`` and an English message (the message is what
the server logs and what tests read). A refusal with values is made with :func:`refusal`: its English words
keep their message (one of :data:`TEMPLATES` and the values), and :func:`translate` fills the reader's
translation of that template with the same values. A fixed sentence is its own message id. Nothing is read back
out of English words: words with no message and no translation (a library's own, say) are sent as they are.
"""

from __future__ import annotations

from typing import Any

from muster.i18n import N_, message_of, translator

TEMPLATES = (
    N_("unknown seat token"),
    N_("this seat belongs to the browser that took it: open it there (a seat link does not work in another browser)"),
    N_("unknown invitation"),
    N_("someone else has already accepted this invitation: the seat is taken (ask whoever invited you for a new game)"),
    N_("your seat must be one played by a person ({seats})"),
    N_("hints are proposed by the creator, for the creator's own seat"),
    N_("the creator's seat must be one played by a person"),
    N_("unknown game"),
    N_("request body too large"),
    N_("the game is over"),
    N_("no game {game}"),
    N_("unknown game {game}; web games: {games}"),
    N_("unknown ruleset {ruleset}"),
    N_("unknown message type {kind} (use action, undo or sync)"),
    N_("a message is a JSON object with a 'type'"),
    N_("give a player for each seat: {seats}"),
    N_("{game} has the seats {seats}"),
    N_("{seat}: choose \"human\" or a bot level ({levels})"),
    N_("{seat}: choose \"human\" or a bot level"),
    N_("bad bot {bot}: {error}"),
    N_("names may be given only for seats played by people"),
    N_("hints must be proposed by a seat played by a person"),
    N_("a game between two people is dealt from a secret key: a chosen seed is only for games against a bot"),
    N_("send the version of the state you are acting on (an integer)"),
    N_("the game has moved on (version {version}, you sent {sent}); reload the state and choose again"),
    N_("it is not {seat}'s turn (waiting for {active})"),
    N_("illegal action {action} (prompt: {prompt})"),
    N_("nothing to undo: dice were rolled, cards drawn or a card shown since this turn began"),
    N_("the change could not be stored; nothing was changed"),
    N_("the server holds {n} busy games, its limit: try again in a minute"),
    N_("game {game} was recorded under rules version {recorded}, and this server plays {current}: it can only be "
       "continued by the muster release that recorded it (the stored game is kept unchanged)"),
    N_("game {game} cannot be rebuilt from its stored actions with the current rules (was it recorded by an older "
       "version?)"),
    N_("only games between bots can be watched"),
    N_("that token belongs to another game"),
    N_("this game is not finished; only its players may replay it (send a token)"),
    N_("step must be an integer"),
    N_("step must be between 0 and {n}"),
    N_("the analysis opens when the game is over"),
    N_("the live curve is shown only for games between bots"),
    N_("{what} is not JSON: {error}"),
    N_("{what} nests deeper than {n} levels"),
    N_("not an action: {value}"),
    N_("{seat} is not played by a person"),
    N_("no hints were proposed for this game"),
    N_("a request from another site was refused"),
    N_("log in first"),
    N_("the request lacks this sign-in's CSRF token: reload the page"),
    N_("a password has {min} to {max} characters"),
    N_("a name has 3 to 24 letters, digits, '_', '.' or '-', and begins and ends with a letter or digit"),
    N_("that is not an e-mail address"),
    N_("too many sign-ups from your address: try again in {wait} s"),
    N_("that name is taken: choose another"),
    N_("too many failed logins: try again in {wait} s"),
    N_("wrong name or password"),
    N_("this account is suspended"),
    N_("the current password is wrong"),
    N_("hints need the agreement of {seats}"),
    N_("Hints are off in this game."),
    N_("too many games created from your address: try again in {n} s"),
    N_("too many replay steps from your address: try again in {n} s"),
    N_("request body over {n} bytes"),
    N_("the request body stopped arriving"),
    N_("{n} analyses asked from your address are still being worked out: wait for them"),
    N_("the analysis queue is full: try again in a minute"),
    N_("the analysis of this game could not be worked out; try again later"),
    N_("the curve could not be worked out; try again later"),
    N_("the server is busy working out analyses: try again in a minute"),
    N_("the server is busy working out hints: try again in a minute"),
    N_("the hints could not be worked out; try again later"),
    N_("too many hints asked from this seat: try again in {n} s"),
    N_("too many hints asked from your address: try again in {n} s"),
    N_("your address already runs {n} games between bots: wait until one is over"),
    N_("the request body did not arrive within {n} s"),
    N_("requests from a page of another site are refused"),
    N_("send the body as JSON (Content-Type: application/json)"),
    N_("{name} is the name of a side: choose another name"),
    N_("you cannot join this game"),
    N_("no such account"),
    N_("you cannot block yourself"),
    N_("you can block at most {n} accounts"),
    N_("only a person resigns"),
    N_("a rematch is offered when the game is over"),
    N_("a rematch is for a game between two people"),
    N_("no rematch with this player"),
    N_("you are sending messages too fast: wait a minute"),
    N_("this game's chat is full"),
    N_("an empty message"),
    N_("only the players chat"),
    N_("too many messages from your address: wait a minute"),
    N_("the lobby has games for two players"),
    N_("choose a side of {seats} or random"),
    N_("log in to post a rated game"),
    N_("you have enough open games waiting: withdraw one first"),
    N_("the lobby is full: try again later"),
    N_("this open game is gone (joined, withdrawn or expired)"),
    N_("this is your own open game"),
    N_("log in to join a rated game"),
    N_("someone else joined this game first"),
    N_("no such open game of yours"),
    N_("no such player"),
)
"""Every refusal a player may read, as the English template its message is made from."""

class Refusal(str):
    """A refusal's English words that keep the message they were made from (``{"m": template, "a": values}``)."""

    message: dict[str, Any]


def refusal(template: str, /, **values: Any) -> str:
    """The English words of ``template`` (one of :data:`TEMPLATES`) filled with ``values``, keeping both, so
    that :func:`translate` fills the template of any language with them."""
    text = Refusal(template.format(**values))
    text.message = {"m": template, "a": values}
    return text


def words_of(exc: BaseException) -> str:
    """What an exception says, keeping the message of a :func:`refusal` (``str(exc)`` of a refusal would be its
    bare words)."""
    first = exc.args[0] if len(exc.args) == 1 else None
    return first if isinstance(first, str) else str(exc)


def _value_in(value: Any, lang: str) -> str:
    """A value as a reader of ``lang`` reads it: a seat (or a list of seats, ", "-separated) by its side's name
    where the catalog has one; any other value as it is."""
    tr = translator(lang)
    parts = [str(v) for v in value] if isinstance(value, list | tuple) else str(value).split(", ")
    named = [tr.gettext(f"side:{part}") for part in parts]
    return ", ".join(name if name != f"side:{part}" else part for name, part in zip(named, parts, strict=True))


def translate(message: Any, lang: str) -> str:
    """``message`` in ``lang``: a :func:`refusal` (or its message) fills the translated template with its values,
    a fixed sentence is looked up as it is; words with neither stay unchanged."""
    said = message if isinstance(message, dict) else message_of(message)
    if lang == "en":
        return str(message) if said is None or not isinstance(message, dict) else \
            said["m"].format(**said.get("a", {}))
    tr = translator(lang)
    if said is None:
        return tr.gettext(str(message))
    return tr.gettext(said["m"]).format(**{key: _value_in(value, lang) for key, value in said.get("a", {}).items()})
