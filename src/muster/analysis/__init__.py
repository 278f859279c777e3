"""Game analysis: a calibrated win-probability estimate, post-game turning points and opt-in hints."""

from typing import Any


class _FreedomAnalysis:
    """Freedom!'s analysis as its game module exposes it (the part named ``analysis``): the post-game review
    (:meth:`analyze`, :meth:`curve`, :meth:`analyze_save`), hints (:meth:`hints`) and their words."""

    def analyze(self, *args: Any, **kwargs: Any) -> Any:
        """See :func:`muster.analysis.postgame.analyze`."""
        from muster.analysis.postgame import analyze

        return analyze(*args, **kwargs)

    def curve(self, *args: Any, **kwargs: Any) -> Any:
        """See :func:`muster.analysis.postgame.curve`."""
        from muster.analysis.postgame import curve

        return curve(*args, **kwargs)

    def analyze_save(self, *args: Any, **kwargs: Any) -> Any:
        """See :func:`muster.analysis.postgame.analyze_save`."""
        from muster.analysis.postgame import analyze_save

        return analyze_save(*args, **kwargs)

    def hints(self, *args: Any, **kwargs: Any) -> Any:
        """See :func:`muster.analysis.advice.hints`."""
        from muster.analysis.advice import hints

        return hints(*args, **kwargs)

    def reason_in(self, reason: str, lang: str) -> str:
        """See :func:`muster.analysis.texts.reason_in`."""
        from muster.analysis.texts import reason_in

        return reason_in(reason, lang)

    def side_in(self, seat: str, lang: str) -> str:
        """See :func:`muster.analysis.texts.side_in`."""
        from muster.analysis.texts import side_in

        return side_in(seat, lang)

    def turning_note(self, better: bool, luck: bool, lang: str = "en") -> str:
        """See :func:`muster.analysis.texts.turning_note`."""
        from muster.analysis.texts import turning_note

        return turning_note(better, luck, lang)


ANALYSIS = _FreedomAnalysis()
"""Freedom!'s analysis part (moves into the game's package with the plugin boundary)."""
