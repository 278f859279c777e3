"""A refused request, as the web app's endpoints raise it and answer it (see :class:`ApiError`)."""

from __future__ import annotations

import logging
from typing import Any

from muster.error_texts import translate as translate_error
from muster.error_texts import words_of as words_of
from muster.i18n import message_of
from muster.server.observe import rejected

log = logging.getLogger("muster.server")

MAX_ERROR_TEXT = 500
"""The longest error message sent (characters): a refusal may quote what the client sent (an illegal action,
say), and a client must not be able to make the server echo a whole request body back."""


class ApiError(Exception):
    """A refused request: an HTTP status, a short machine code and a message in words (at most
    :data:`MAX_ERROR_TEXT` characters: a longer one is cut, marked with an ellipsis)."""

    def __init__(self, status: int, code: str, message: str) -> None:
        self.said = message_of(message)
        """The message a :func:`muster.error_texts.refusal` keeps (its template and values), or None."""
        if len(message) > MAX_ERROR_TEXT:
            message = message[:MAX_ERROR_TEXT - 1] + "…"
        super().__init__(message)
        self.status, self.code, self.message = status, code, message

    def to_json(self, lang: str = "en") -> dict[str, Any]:
        """The error as sent to clients (the message in ``lang``; the code stays); each one sent is counted
        by its code (:func:`muster.server.observe.rejected`)."""
        rejected(self.code)
        if log.isEnabledFor(logging.INFO):
            log.info("refused (%s): %s", self.code, self.message[:200],
                     extra={"event": "refused", "code": self.code, "status": self.status})
        message = self.message if lang == "en" else translate_error(self.said or self.message, lang)
        if len(message) > MAX_ERROR_TEXT:  # a translation quoting what the client sent is cut like the English
            message = message[:MAX_ERROR_TEXT - 1] + "…"
        return {"type": "error", "code": self.code, "error": message}
