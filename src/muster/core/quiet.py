"""The ``quiet`` option the lab and the research adapters ask for: a game that offers it (both bundled games
do) keeps no words in its log, which learning does not read; a game without it is played as it is."""

from __future__ import annotations

from muster.core import Rules


def quiet_options(rules: Rules) -> dict[str, str]:
    """``{"quiet": "1"}`` if ``rules`` offers the option, else nothing."""
    return {"quiet": "1"} if "quiet" in rules.info.options else {}
