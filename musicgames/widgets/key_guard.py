"""Keys pressed in an ipywidgets box of ours stay in it: :func:`keep_keys`.

The games, the drill and the quiz keep their keys from the notebook themselves (their views
share ``_focus.js``). A box made of ipywidgets (a lesson's exercise or settings, the hand-in
box, the deck maker, the teacher's view) has no view of its own to do it, so it gets a
:class:`KeyGuard`: a hidden widget whose view holds the box around it. Then no key pressed on
one of the box's buttons, menus or links reaches JupyterLab's shortcuts (Ctrl+Enter, Alt+Enter,
Shift+Enter, A, B, D D, M …), while typing in its fields and the browser's own shortcuts work
as usual. Without a browser nothing happens and nothing fails:

>>> import ipywidgets
>>> box = keep_keys(ipywidgets.VBox([ipywidgets.Button(description="Hand in")]))
>>> box._dom_classes, [type(child).__name__ for child in box.children]
(('mg-keep-keys',), ['Button', 'KeyGuard'])
"""

from __future__ import annotations

from typing import TypeVar

import anywidget
import ipywidgets

from musicgames.widgets._assets import joined

__all__ = ["KeyGuard", "keep_keys"]

Box = TypeVar("Box", bound=ipywidgets.Box)


class KeyGuard(anywidget.AnyWidget):
    """Draws nothing; its view keeps the keys pressed in the box around it from the notebook
    (the box needs the class ``mg-keep-keys``: use :func:`keep_keys`)."""

    _esm = joined("_focus.js", "key_guard.js")

    def __init__(self) -> None:
        super().__init__(layout=ipywidgets.Layout(display="none"))


def keep_keys(box: Box) -> Box:
    """Keep the keys pressed in ``box`` from the notebook (adds a :class:`KeyGuard` as its
    last child); returns ``box``."""
    box.add_class("mg-keep-keys")
    box.children = (*box.children, KeyGuard())
    return box
