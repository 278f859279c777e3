"""Rewording an English sentence made from a known template into another language.

Some sentences are built in English where they are made (the rules' prompts, the server's refusals) and kept in
English there, since tests and logs read them. :class:`Templates` finds the template a sentence was made from,
reads the values back out of it, lets the caller translate each value, and fills the translated template.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import cached_property

from muster.i18n import translator

ValueIn = Callable[[str, str, str], str]
"""``(placeholder name, English value, language) -> value in that language``."""


def _keep(name: str, value: str, lang: str) -> str:
    return value


class Templates:
    """English templates with ``{name}`` placeholders; :meth:`translate` rewords a sentence made from one."""

    def __init__(self, templates: Iterable[str], value_in: ValueIn = _keep) -> None:
        self.templates = tuple(templates)
        self.value_in = value_in

    @cached_property
    def patterns(self) -> tuple[tuple[re.Pattern[str], str], ...]:
        """Each template as a regular expression (a placeholder matches any text, as little as it can)."""
        out = []
        for template in self.templates:
            parts = re.split(r"\{(\w+)\}", template)
            regex = "".join(re.escape(p) if k % 2 == 0 else f"(?P<{p}>.+?)" for k, p in enumerate(parts))
            out.append((re.compile(regex + r"\Z", re.S), template))
        return tuple(out)

    def find(self, sentence: str, lang: str) -> str | None:
        """``sentence`` in ``lang``, or None if no template fits it."""
        for pattern, template in self.patterns:
            m = pattern.match(sentence)
            if m is not None:
                values = {k: self.value_in(k, v, lang) for k, v in m.groupdict().items()}
                return translator(lang).gettext(template).format(**values)
        return None

    def translate(self, sentence: str, lang: str) -> str:
        """``sentence`` in ``lang``; unchanged if no template fits (or the language is English)."""
        if lang == "en" or not sentence:
            return sentence
        found = self.find(sentence, lang)
        return sentence if found is None else found
