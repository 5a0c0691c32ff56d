"""What a student reads in a lesson: every visible string of its notebook and its outputs.

Used by the lesson tests to find English words left in the Spanish lessons, and English or
Spanish words left in the French ones.
"""

from __future__ import annotations

import ast
import html
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import ipywidgets as widgets
import nbformat

#: Common English words that are not Spanish words. A Spanish lesson's text, outputs and
#: widget strings must hold none of them.
_WORDS = """
    the and of to is are was were be been this that these those with without for from by
    what which who whose when where why how yes not you your yours it its they their them
    she his her we our us my i'm it's don't can't here there then than now only just
    also very more most less some any each every all both either none one two three four
    five six seven eight nine first second third fourth fifth last next again start
    play played playing click clicked press pressed right wrong answer answers question
    questions lesson lessons exercise exercises drill quiz game games card cards key keys
    keyboard note notes staff line lines space spaces ledger clef treble chord chords triad
    triads root major minor sharp sharps flat flats half step steps whole octave octaves
    name names naming letters solfège time times left score done try well good great
    quite match slap slaps hands still pile call called calls turn turns round rounds
    token tokens power worth points point bonus board white black player players
    computer computers beginner settings setting sound size small big bigger large your
    name progress saved kept keep learned practise practice review due summary median
    seconds second minute minutes median asked way ways find found read reading
    fast slow slowly sure count counted counting up down above below between under over
    into onto out inside outside middle top bottom same other another different number
    numbers because so but or if at on in an many much new old go goes going
    coming take takes taking taken give gives make makes made look looks show shows
    hear heard listen bright dark wins win won lose lost winner loser ends end ended
    begin begins first would could should will shall must may might need needs needed
    have had does did going see sees seen say says said tell tells told
"""
ENGLISH_WORDS = frozenset(_WORDS.split())
#: Words a Spanish lesson may show although English speakers write them too: the key
#: "Enter" (as Latin-American keyboards label it), the link to the English lesson, the name
#: of the game Note Snap.
ALLOWED = ("Enter", "English", "Note Snap")


_KEY_CODE = re.compile(r"^(Space|Enter|Escape|Key[A-Z]|Digit[0-9])$")


def _plain(markup: str) -> str:
    """Visible text of HTML or markdown: no styles, no drawings, no tags, no link targets."""
    text = re.sub(r"<style.*?</style>", " ", markup, flags=re.S)
    text = re.sub(r"<svg.*?</svg>", " ", text, flags=re.S)
    text = re.sub(r"<[^>]+>", " ", text)
    text = re.sub(r"\]\([^)]*\)", "] ", text)  # markdown link targets
    return html.unescape(text)


def english_words(text: str) -> list[str]:
    """The English words in ``text`` (after the allowed names, ``{placeholders}`` and
    catalogue keys like ``duel.rules.turn`` are taken out)."""
    text = re.sub(r"\{\w+\}", " ", text)
    text = re.sub(r"\b\w+(?:\.\w+)+\b", " ", text)
    for allowed in ALLOWED:
        text = text.replace(allowed, " ")
    words = re.findall(r"[A-Za-zÀ-ÿ']+", text)
    return [w for w in words if w.lower() in ENGLISH_WORDS and len(w) > 1]


def widget_texts(widget: Any) -> Iterator[str]:
    """Every string a widget (and its children) shows or may show."""
    from musicgames.lessons import Exercise

    if isinstance(widget, Exercise):
        for question in widget.questions:
            yield question.prompt
            yield from question.options
            for index in range(len(question.options)):
                yield _plain(widget.feedback_html(index, question))
        yield widget.title
    if isinstance(widget, (widgets.HTML, widgets.Label)):
        yield _plain(widget.value)
    for attribute in ("description", "placeholder", "tooltip"):
        value = getattr(widget, attribute, None)
        if isinstance(value, str):
            yield value
    if isinstance(widget, (widgets.ToggleButtons, widgets.Dropdown)):
        yield from (str(label) for label in widget._options_labels)
    if hasattr(widget, "children"):
        for child in widget.children:
            yield from widget_texts(child)
    if type(widget).__module__.startswith("musicgames.widgets"):
        for name in widget.trait_names(sync=True):
            if name.startswith("_") or name in {"layout", "tabbable", "tooltip"}:
                continue
            yield from _strings(getattr(widget, name))


def _strings(value: Any) -> Iterator[str]:
    """The text in a widget's state: sentences, and every entry of a catalogue (a single
    lower-case word alone, like ``"keyboard"``, is a setting's value, and a key code like
    ``"Space"`` is shown through the catalogue's name for it)."""
    if isinstance(value, str):
        if _KEY_CODE.match(value):
            return
        if " " in value.strip() or value[:1].isupper():
            yield _plain(value)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _strings(item)


def run_cells(path: Path) -> list[Any]:
    """Run a notebook's code cells in order, headless, as the kernel would; return what each
    cell shows (the value of its last expression)."""
    namespace: dict[str, Any] = {}
    shown = []
    for cell in nbformat.read(path, as_version=4).cells:
        if cell.cell_type != "code":
            continue
        tree = ast.parse(cell.source)
        last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
        exec(compile(tree, str(path), "exec"), namespace)
        if last is not None:
            shown.append(eval(compile(ast.Expression(last.value), str(path), "eval"), namespace))
    return shown
