"""Keep the catalogs in step with the code: find every message the code uses, and update the ``.po`` files.

``python -m muster.i18n_tools`` adds new messages (empty in Polish, the id itself in English), drops messages
no code uses, and keeps every translation already written. The test suite uses :func:`extract` to fail on a
message that lacks a translation or a translation no code uses.

A message is a string literal passed to: ``log(state, msgid[, plural])``, ``entry(msgid[, plural])``,
``N_(msgid)``, ``_(msgid)``, ``tr.gettext(msgid)``, ``tr.fmt(msgid)``, ``tr.ngettext(s, p, n)``, ``tr.nfmt(s, p, n)``.
Browser strings are the keys of ``data-i18n`` attributes and ``t("…")`` calls in the static files (the
shell's and every game's ``static/`` folder). ``s.say(msgid[, plural])`` (a game state's log) and
``said(msgid[, plural])`` (a prompt or a label worded by the rules) count as well.

Each message goes to one catalog domain (:func:`muster.i18n.domains`): a message used only by the files of
games with their own domain (a registered game's package, by its module's ``domain``) to that domain's
catalog, every other (the shared code's, or used by two domains) to ``muster.po``.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

from muster.core.registry import game_modules
from muster.i18n import DOMAIN, LANGS, domains, po_path

SRC = Path(__file__).parent
# function name -> (index of the singular, index of the plural or None)
CALLS: dict[str, tuple[int, int | None]] = {
    "log": (1, 2),
    "entry": (0, 1),
    "N_": (0, None),
    "_": (0, None),
    "gettext": (0, None),
    "fmt": (0, None),
    "ngettext": (0, 1),
    "nfmt": (0, 1),
    "say": (0, 1),
    "said": (0, 1),
}
JS_PATTERNS = (re.compile(r"""\bt\(\s*"((?:[^"\\]|\\.)+)\""""), re.compile(r'data-i18n(?:-[a-z-]+)?="([^"]+)"'))
JS_PLURAL = re.compile(r"""\btn\(\s*"((?:[^"\\]|\\.)+)",\s*"((?:[^"\\]|\\.)+)\"""")


def _literal(node: ast.expr) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def extract_python(root: Path = SRC, only: Callable[[Path], bool] | None = None) -> dict[str, str | None]:
    """Every message id in the Python sources (of the files ``only`` accepts), with its plural id (None for a
    simple message)."""
    found: dict[str, str | None] = {}
    for path in sorted(root.rglob("*.py")):
        if only is not None and not only(path):
            continue
        tree = ast.parse(path.read_text("utf-8"), str(path))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            fn = node.func
            name = fn.id if isinstance(fn, ast.Name) else fn.attr if isinstance(fn, ast.Attribute) else None
            if name not in CALLS:
                continue
            one, many = CALLS[name]
            if len(node.args) <= one:
                continue
            # log(s, ("{space} is damaged.", "{space} is destroyed.")[k]): every literal of the tuple is a message
            arg = node.args[one]
            singles = [_literal(e) for e in arg.value.elts] if isinstance(arg, ast.Subscript) and isinstance(
                arg.value, ast.Tuple) else [_literal(arg)]
            plural = _literal(node.args[many]) if many is not None and len(node.args) > many else None
            for msgid in singles:
                if msgid:
                    found[msgid] = plural if len(singles) == 1 else None
    return found


def static_roots() -> list[Path]:
    """The folders of browser files: the shell's, and every registered game's ``static/``."""
    return [SRC / "server" / "static", *(m.static_dir for m in game_modules().values() if m.static_dir.is_dir())]


def extract_static(root: Path | None = None,
                   only: Callable[[Path], bool] | None = None) -> dict[str, str | None]:
    """Every message id of the browser files (``t("…")``, ``tn("…", "…", n)``, ``data-i18n="…"``) under ``root``
    (default: :func:`static_roots`)."""
    found: dict[str, str | None] = {}
    roots = [root] if root is not None else static_roots()
    for path in sorted(p for r in roots for p in [*r.rglob("*.js"), *r.rglob("*.html")]):
        if only is not None and not only(path):
            continue
        text = path.read_text("utf-8")
        for pattern in JS_PATTERNS:
            for m in pattern.finditer(text):
                found.setdefault(m.group(1).replace('\\"', '"'), None)
        for m in JS_PLURAL.finditer(text):
            found[m.group(1)] = m.group(2)
    return found


def extract() -> dict[str, str | None]:
    """Every message id the code uses, with its plural id (None for a simple message)."""
    return {**extract_static(), **extract_python()}


def shipped_domains() -> tuple[str, ...]:
    """The domains whose catalogs muster ships: the shared one and those of the games inside this package (a game
    installed from elsewhere keeps its catalogs, if it has any, in its own package)."""
    inside = {m.domain for m in game_modules().values() if m.root.resolve().is_relative_to(SRC.resolve())}
    return tuple(d for d in domains() if d == DOMAIN or d in inside)


def domain_of(path: Path) -> str:
    """The domain of a file's messages: that of the registered game whose package holds it, else the shared one."""
    resolved = path.resolve()
    for module in game_modules().values():
        if resolved.is_relative_to(module.root.resolve()):
            return module.domain
    return DOMAIN


def _used_by(domain: str) -> dict[str, str | None]:
    """The messages the files of ``domain`` use."""
    def mine(path: Path) -> bool:
        return domain_of(path) == domain

    return {**extract_static(only=mine), **extract_python(only=mine)}


def extract_domain(domain: str) -> dict[str, str | None]:
    """The messages of one catalog domain: a game domain's own, or the shared ones (those of the shared code,
    and any message files of two domains use)."""
    if domain not in domains():
        raise ValueError(f"unknown domain {domain!r}; choose one of: {', '.join(domains())}")
    by_domain = {d: _used_by(d) for d in domains()}
    seen: dict[str, int] = {}
    for found in by_domain.values():
        for msgid in found:
            seen[msgid] = seen.get(msgid, 0) + 1
    if domain == DOMAIN:
        shared = dict(by_domain[DOMAIN])
        for d, found in by_domain.items():
            shared.update({msgid: plural for msgid, plural in found.items() if d != DOMAIN and seen[msgid] > 1})
        return shared
    return {msgid: plural for msgid, plural in by_domain[domain].items() if seen[msgid] == 1}


def update(lang: str, domain: str = "muster") -> Catalog:
    """Rewrite the catalog of ``lang`` in ``domain``: new messages added, unused ones dropped, translations kept."""
    path = po_path(lang, domain)
    old: Catalog | None = None
    if path.exists():
        with path.open("rb") as fh:
            old = read_po(fh, locale=lang)
    cat = Catalog(locale=lang, domain=domain, project="muster", fuzzy=False)
    for msgid, plural in sorted(extract_domain(domain).items()):
        prev = old.get(msgid) if old is not None else None
        if plural is None:
            string: str | tuple[str, ...] = prev.string if prev is not None and isinstance(prev.string, str) else ""
            if lang == "en" and not string:
                string = msgid
            cat.add(msgid, string)
        else:
            forms = prev.string if prev is not None and isinstance(prev.string, tuple | list) else ()
            if lang == "en" and not any(forms):
                forms = (msgid, plural)
            cat.add((msgid, plural), tuple(forms) if forms else ("",) * cat.num_plurals)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as fh:
        write_po(fh, cat, width=120, omit_header=False, sort_output=True)
    return cat


def main(only: tuple[str, ...] = ()) -> None:
    """Update every catalog (of the domains in ``only``, default every one muster ships) and say how many messages
    still lack a translation."""
    for domain in only or shipped_domains():
        for lang in LANGS:
            cat = update(lang, domain)
            missing = [m.id for m in cat if m.id and not (all(m.string) if isinstance(m.string, tuple) else m.string)]
            print(f"{domain} {lang}: {len(cat)} messages, {len(missing)} untranslated")


if __name__ == "__main__":
    import sys

    main(tuple(sys.argv[1:]))
