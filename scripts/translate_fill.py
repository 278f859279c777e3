"""Fill catalog entries from a Python dict file (``PL``: msgid -> text, ``(msgid,)`` -> plural forms).

Usage: ``python scripts/translate_fill.py FILE LANG [DICT]``; only empty entries are filled.
"""

from __future__ import annotations

import runpy
import sys

from babel.messages.pofile import read_po, write_po

from muster.i18n import po_path


def main() -> None:
    """Fill the catalog of a language from a dict file."""
    path, lang = sys.argv[1], sys.argv[2]
    table = runpy.run_path(path)[sys.argv[3] if len(sys.argv) > 3 else "PL"]
    po = po_path(lang)
    with po.open("rb") as fh:
        cat = read_po(fh, locale=lang)
    filled = 0
    for msg in cat:
        if not msg.id:
            continue
        if isinstance(msg.id, tuple | list):
            forms = table.get((msg.id[0],))
            if forms and not all(msg.string):
                msg.string = tuple(forms)
                filled += 1
        else:
            text = table.get(msg.id)
            if text and (not msg.string or msg.string == msg.id):
                msg.string = text
                filled += 1
    with po.open("wb") as fh:
        write_po(fh, cat, width=120, sort_output=True)
    print(f"{lang}: {filled} filled")


if __name__ == "__main__":
    main()
