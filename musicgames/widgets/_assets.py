"""A widget's page files: its view's JavaScript or CSS, after the shared files it uses.

anywidget takes one ES module and one style sheet per widget. What several views share lives
in files of its own next to them (``_dom.js``: building elements; ``_focus.js`` and
``_focus.css``: taking the focus and keeping the widget's keys from the notebook;
``_practice.js`` and ``_practice.css``: the session view of the note drill and the chord
quiz; ``_midi.js``: a MIDI keyboard through Web MIDI; ``_play_input.js`` and
``_play_input.css``: the "answer with" switch, Click / MIDI keyboard / Microphone). Those
files define names and export nothing; :func:`joined` puts them in front of the
view's own file, so the view uses their names as its own, and the page still loads a single
module.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["joined"]

_HERE = Path(__file__).parent


def joined(*names: str) -> str:
    """The text of the widget files ``names`` (in this folder), one after the other.

    >>> source = joined("_dom.js", "note_snap/view.js")
    >>> source.index("function h(") < source.index("class SnapView")
    True
    """
    return "\n".join((_HERE / name).read_text(encoding="utf-8") for name in names)
