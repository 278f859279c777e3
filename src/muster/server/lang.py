"""The reader's language on the web: ``?lang=``, then the ``muster_lang`` cookie, then ``Accept-Language``.

A page opened with ``?lang=pl`` sets the cookie, so the choice is remembered per browser; every page is served
with ``<html lang>`` set to the language chosen.
"""

from __future__ import annotations

from starlette.requests import HTTPConnection
from starlette.responses import Response

from muster.i18n import DEFAULT_LANG, from_accept_language, normalise

COOKIE = "muster_lang"
ONE_YEAR = 365 * 24 * 3600


def explicit_lang(conn: HTTPConnection) -> str | None:
    """The language asked for in the query (``?lang=pl``), if it is one we have."""
    return normalise(conn.query_params.get("lang", "")[:16])


def request_lang(conn: HTTPConnection) -> str:
    """The language to answer ``conn`` in."""
    return (explicit_lang(conn) or normalise(conn.cookies.get(COOKIE, "")[:16])
            or from_accept_language(conn.headers.get("accept-language", "")[:500]) or DEFAULT_LANG)


def remember(response: Response, conn: HTTPConnection) -> Response:
    """Store an explicit ``?lang=`` choice in a cookie, so later pages of this browser follow it."""
    lang = explicit_lang(conn)
    if lang:
        response.set_cookie(COOKIE, lang, max_age=ONE_YEAR, samesite="lax", httponly=False)
    return response
