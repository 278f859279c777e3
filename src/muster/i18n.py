"""Languages: gettext catalogs read with Babel, plural rules, numbers, and the language-neutral game log.

The catalogs are the ``.po`` files under ``muster/locale/<lang>/LC_MESSAGES/<domain>.po``: ``muster.po`` for
the shared pages and every game that keeps its words there, and one more per game that has its own domain (see
:func:`domains`); a look-up searches them all. They
are read at run time with Babel (no compile step, so ``pip install -e .`` is enough); the browser gets the same
messages as JSON from :func:`json_catalog`. English strings are the message ids; the English catalog repeats them
so a test can check that both languages are complete.

A log entry is either a legacy English string (old saves: shown as it is) or a dict ``{"m": msgid, "a": args}``
(``"p"``: the plural msgid, counted by ``args["n"]``). Arguments are rendered by their names: see
:data:`ARG_KINDS`.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po
from babel.numbers import format_decimal

from muster.core.registry import game_modules

LANGS = ("en", "pl")
DEFAULT_LANG = "en"
DOMAIN = "muster"
LOCALE_DIR = Path(__file__).parent / "locale"
LANG_NAMES = {"en": "English", "pl": "Polski"}


def N_(msgid: str) -> str:  # noqa: N802 - the gettext convention for "mark for extraction only"
    """Mark ``msgid`` for the catalogs without translating it now (it is translated when shown)."""
    return msgid


def po_path(lang: str, domain: str = DOMAIN) -> Path:
    """Where the catalog of ``lang`` (one domain) lives."""
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{domain}.po"


@cache
def catalog(lang: str, domain: str = DOMAIN) -> Catalog:
    """The parsed catalog of ``lang`` in one domain (read once per process; an absent file reads as empty)."""
    path = po_path(lang, domain)
    if not path.exists():
        return Catalog(locale=lang, domain=domain)
    with path.open("rb") as fh:
        return read_po(fh, locale=lang, domain=domain)


@cache
def domains() -> tuple[str, ...]:
    """The catalog files of each language: the shared one, and the domain of every registered game that has
    its own (its module's ``domain``), so translators of two games never edit the same file. A message id
    lives in exactly one of them (:mod:`muster.i18n_tools` decides which)."""
    found = [DOMAIN]
    for module in game_modules().values():
        if module.domain not in found:
            found.append(module.domain)
    return tuple(found)


def messages(lang: str) -> list[Any]:
    """Every message of ``lang``, from every domain."""
    return [msg for domain in domains() for msg in catalog(lang, domain)]


@cache
def _plurals(lang: str) -> dict[str, tuple[str, ...]]:
    """Every complete plural translation of ``lang`` by its singular id (a dict: a catalog look-up costs ~100 µs)."""
    out: dict[str, tuple[str, ...]] = {}
    for msg in messages(lang):
        if isinstance(msg.id, tuple | list) and isinstance(msg.string, tuple | list) and all(msg.string):
            out[str(msg.id[0])] = tuple(str(f) for f in msg.string)
    return out


def normalise(value: str | None) -> str | None:
    """One of :data:`LANGS` from ``pl``, ``pl_PL.UTF-8``, ``en-GB`` ...; None if not supported."""
    if not value:
        return None
    code = value.strip().replace("-", "_").split("_")[0].split(".")[0].lower()
    return code if code in LANGS else None


def from_accept_language(header: str | None) -> str | None:
    """The best supported language of an HTTP ``Accept-Language`` header, or None."""
    best: tuple[float, str] | None = None
    for part in (header or "").split(",")[:20]:
        tag, _, q = part.strip().partition(";q=")
        lang = normalise(tag)
        if lang is None:
            continue
        try:
            weight = float(q) if q else 1.0
        except ValueError:
            continue
        if best is None or weight > best[0]:
            best = (weight, lang)
    return best[1] if best else None


def from_environment(env: Mapping[str, str] | None = None) -> str:
    """The language of a terminal: ``MUSTER_LANG``, then ``LC_ALL``, ``LC_MESSAGES``, ``LANG``; else English."""
    env = os.environ if env is None else env
    for key in ("MUSTER_LANG", "LC_ALL", "LC_MESSAGES", "LANG"):
        lang = normalise(env.get(key))
        if lang:
            return lang
    return DEFAULT_LANG


def check_lang(lang: str | None) -> str:
    """``lang`` if supported; a clear ValueError otherwise (None: English)."""
    if lang is None:
        return DEFAULT_LANG
    found = normalise(lang)
    if found is None:
        raise ValueError(f"unsupported language {lang!r}; choose one of: {', '.join(LANGS)}")
    return found


@dataclass(frozen=True)
class Translator:
    """Messages, plurals and numbers of one language."""

    lang: str

    @property
    def locale(self) -> Locale:
        """The Babel locale."""
        return Locale.parse(self.lang)

    def gettext(self, msgid: str) -> str:
        """The translation of ``msgid`` (the id itself if the catalog has none)."""
        return _strings(self.lang).get(msgid, msgid)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        """The form of ``singular``/``plural`` that fits the number ``n`` (Polish has three)."""
        forms = _plurals(self.lang).get(singular)
        if forms:
            return forms[min(_plural_index(self.lang, n), len(forms) - 1)]
        return singular if n == 1 else plural

    def number(self, value: float) -> str:
        """A number written the way this language writes it."""
        if isinstance(value, int) and -1000 < value < 1000:  # no grouping below 1000 in either language; fast
            return str(value)
        return format_decimal(value, locale=self.lang)

    def fmt(self, msgid: str, /, **args: Any) -> str:
        """Translate and fill ``{placeholders}``."""
        return self.gettext(msgid).format(**args)

    def nfmt(self, singular: str, plural: str, n: int, /, **args: Any) -> str:
        """Translate by number and fill ``{placeholders}`` (``{n}`` is the number)."""
        return self.ngettext(singular, plural, n).format(n=self.number(n), **args)


@cache
def _strings(lang: str) -> dict[str, str]:
    """Every simple translation of ``lang`` (the first form of a plural), for fast look-ups."""
    out: dict[str, str] = {}
    for msg in messages(lang):
        if not msg.id or not msg.string:
            continue
        key = msg.id[0] if isinstance(msg.id, tuple | list) else msg.id
        text = msg.string[0] if isinstance(msg.string, tuple | list) else msg.string
        if text:
            out[str(key)] = str(text)
    return out


@cache
def _locale(lang: str) -> Locale:
    """Babel's locale object, parsed once (each parse reloads its data)."""
    return Locale.parse(lang)


@cache
def _plural_index(lang: str, n: int) -> int:
    """The gettext plural index of ``n``, from the CLDR rules Babel holds."""
    category = _locale(lang).plural_form(abs(n))
    return plural_categories(lang).index(category) if category in plural_categories(lang) else 0


@cache
def plural_categories(lang: str) -> tuple[str, ...]:
    """The CLDR plural categories in the order of the gettext forms of ``lang``."""
    return {"pl": ("one", "few", "many")}.get(lang, ("one", "other"))


@cache
def translator(lang: str | None = None) -> Translator:
    """The translator of ``lang`` (English if None)."""
    return Translator(check_lang(lang))


def json_catalog(lang: str) -> dict[str, Any]:
    """The browser's catalog: every message of ``lang`` (plurals as lists in :func:`plural_categories` order).

    English ids are the English texts, so its catalog holds only the keyed messages (``side:sparta``) whose
    text differs from the id."""
    lang = check_lang(lang)
    out: dict[str, Any] = {}
    for msg in messages(lang):
        if not msg.id or (lang == "en" and (msg.string == msg.id or isinstance(msg.id, tuple | list))):
            continue
        if isinstance(msg.id, tuple | list):
            forms = msg.string if isinstance(msg.string, tuple | list) else ()
            out[str(msg.id[0])] = [str(f) for f in forms] if all(forms) else [str(msg.id[0]), str(msg.id[1])]
        else:
            out[str(msg.id)] = str(msg.string or msg.id)
    return {"lang": lang, "plural_categories": list(plural_categories(lang)), "messages": out}


# --- the language-neutral log -------------------------------------------------------------------------------------

LogEntry = str | dict[str, Any]


def entry(msgid: str, plural: str | None = None, /, **args: Any) -> dict[str, Any]:
    """A message to render later in the reader's language (``plural``: counted by ``args["n"]``)."""
    e: dict[str, Any] = {"m": msgid, "a": args}
    if plural is not None:
        e["p"] = plural
    return e


class Names:
    """Game-specific names a log needs: spaces, areas, cards, sides. Games subclass it; a subclass may also
    render an argument of its own by name with a method ``arg_<name>(value)`` (it takes precedence).

    A subclass's words depend on its translator alone (no state of its own): :func:`render_all` remembers
    rendered lines per class and language."""

    def __init__(self, tr: Translator) -> None:
        self.tr = tr

    def space(self, i: int) -> str:
        """The name of board space ``i``."""
        return str(i)

    def area(self, i: int) -> str:
        """The name of area ``i``."""
        return str(i)

    def card(self, number: int) -> str:
        """The name of card ``number``."""
        return str(number)

    def side(self, seat: str) -> Any:
        """The name of a side (may carry grammatical forms as attributes)."""
        return self.tr.gettext(seat)


# The kind of an argument follows from its name, so a call site stays one short line.
ARG_KINDS: dict[str, str] = {
    **dict.fromkeys(("space", "src", "dst", "to", "frm", "wall", "fwd"), "space"),
    "area": "area",
    **dict.fromkeys(("card", "other_card"), "card"),
    **dict.fromkeys(("side", "winner", "seat", "who", "first"), "side"),
    "track": "term",
    **dict.fromkeys(("what", "why", "result", "state", "edition", "verdict"), "term"),
    "dice": "dice",
    "rolled": "rolled",
}


def render(e: Any, names: Names) -> str:
    """One log entry in the language of ``names``; a legacy string as it is."""
    if isinstance(e, str):
        return e
    if not isinstance(e, dict) or "m" not in e:
        return str(e)
    tr = names.tr
    args = {key: _arg(key, value, names) for key, value in (e.get("a") or {}).items()}
    if "p" in e:
        n = int(e["a"].get("n", 1))
        return tr.ngettext(e["m"], e["p"], n).format(**args)
    return tr.gettext(e["m"]).format(**args)


def _arg(key: str, value: Any, names: Names) -> Any:
    tr = names.tr
    if isinstance(value, dict) and "m" in value:
        return render(value, names)
    special = _special(type(names), key)  # a game's own kinds of argument (areas by id ...)
    if special is not None:
        return special(names, value)
    if isinstance(value, list) and key not in ("dice", "rolled"):
        parts = [render(v, names) if isinstance(v, dict) else str(v) for v in value]
        return ", ".join(parts) if parts else tr.gettext("nothing")
    kind = ARG_KINDS.get(key)
    if kind == "space" and isinstance(value, int):
        return names.space(value)
    if kind == "area" and isinstance(value, int):
        return names.area(value)
    if kind == "card" and isinstance(value, int):
        return names.card(value)
    if kind == "side" and isinstance(value, str):
        return names.side(value)
    if kind == "term" and isinstance(value, str):
        return tr.gettext(value)
    if kind == "rolled" and isinstance(value, list):  # "[5, 6]": the browser reads a summed roll in this form
        return "[" + ", ".join(str(v) for v in value) + "]"
    if kind == "dice" and isinstance(value, list):
        return tr.gettext(" and ").join(tr.number(v) for v in value)
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return tr.number(value)
    return value


_SPECIALS: dict[tuple[int, str], Any] = {}


def _special(kind: type, key: str) -> Any:
    """The ``arg_<key>`` method of a :class:`Names` class, or None (looked up once per class and key: a
    failed ``getattr`` per argument of every rendered line cost more than the rest of the line)."""
    found = _SPECIALS.get((id(kind), key), _SPECIALS)
    if found is _SPECIALS:
        found = _SPECIALS[(id(kind), key)] = getattr(kind, f"arg_{key}", None)
    return found


_RENDERED: dict[tuple[type, str], dict[Any, str]] = {}
_RENDERED_KEEP = 8192
"""Lines remembered per :class:`Names` class and language (then forgotten all at once: the memory stays bounded)."""


def _memo_key(e: Any) -> Any:
    """A hashable key that stands for what :func:`render` reads of ``e``, or None when ``e`` is not a plain
    entry whose arguments are each exactly an ``int``, a ``str`` or a list of ``int`` (dice). A bool, a
    tuple or a nested message is not remembered: ``True == 1`` would make two entries that render
    differently share a key. A list stands in the key as a tuple, which equals no int or str."""
    if type(e) is not dict:
        return None
    args = e.get("a") or {}
    items = []
    for key, value in args.items():
        kind = type(value)
        if kind is list:
            for item in value:
                if type(item) is not int:
                    return None
            value = tuple(value)
        elif kind is not int and kind is not str:
            return None
        items.append((key, value))
    return e.get("m"), "p" in e, e.get("p"), tuple(items)


def render_all(entries: Iterable[Any], names: Names) -> list[str]:
    """Every entry rendered.

    Lines are remembered by their message and arguments, per :class:`Names` class and language: a live
    server renders each new line of every game, and the same lines (a card played for its points, a unit
    moved between two spaces) come back across games. :func:`render` reads nothing but the entry and
    ``names``, whose words depend only on its class and translator, so a remembered line is the line."""
    memo = _RENDERED.get((type(names), names.tr.lang))
    if memo is None:
        memo = _RENDERED[(type(names), names.tr.lang)] = {}
    out: list[str] = []
    for e in entries:
        key = _memo_key(e)
        if key is None:
            out.append(render(e, names))
            continue
        line = memo.get(key)
        if line is None:
            if len(memo) >= _RENDERED_KEEP:
                memo.clear()
            line = memo[key] = render(e, names)
        out.append(line)
    return out


class Said(str):
    """Words made from a message: the English text, keeping the message (``{"m": msgid, "a": args}``) it was
    rendered from, so that a prompt or a choice's label the rules word in English is rendered again in any
    reader's language from its message id and arguments (:func:`message_of`), never re-parsed."""

    message: dict[str, Any]

    def __new__(cls, message: dict[str, Any], names: Names) -> Said:
        """The words of ``message`` in the language of ``names`` (the rules pass English names)."""
        obj = super().__new__(cls, render(message, names))
        obj.message = message
        return obj


def message_of(text: Any) -> dict[str, Any] | None:
    """The message ``text`` was made from (a :class:`Said`), or None for plain words."""
    message: dict[str, Any] | None = getattr(text, "message", None)
    return message


def words_in(text: Any, names: Names) -> str:
    """A prompt or a choice's label in the language of ``names``: rendered from its message (a :class:`Said`);
    plain words (an older game's, a decision that words none) as they are. Nothing is read back out of words."""
    message = message_of(text)
    if message is None or names.tr.lang == "en":
        return str(text)
    return render(message, names)


def stored_label(item: Mapping[str, Any], names: Callable[[str], Names], lang: str) -> str:
    """The label of a choice stored as JSON (``{"label": english, "message": {...}}``: a hint, an analysis's card)
    in ``lang``, rendered from its message with the game's ``names(lang)``; a label stored without one stays in
    English."""
    message = item.get("message")
    if lang == "en" or not isinstance(message, dict):
        return str(item["label"])
    return render(message, names(lang))


NamesFactory = Callable[[Translator], Names]


def argv_lang(argv: Sequence[str]) -> str:
    """The language named by ``--lang X`` or ``--lang=X`` in ``argv``, else the environment's."""
    for k, arg in enumerate(argv):
        value = arg.partition("=")[2] if arg.startswith("--lang=") else argv[k + 1] if (
            arg == "--lang" and k + 1 < len(argv)) else None
        if value is not None and normalise(value):
            return str(normalise(value))
    return from_environment()
