"""Keyboard Duel, named right: every key, tone and chord shown is spelled in its chord's key.

Seeded games are played through the widget's messages, as the page sends them, in both
languages and both namings. Every text the page is sent (the table: log, status, duel
panel, move buttons, tooltips, hints, errors) and every log line is read, and each phrase
"<note> (<mark>) of <chord>" / "<nota> (<marca>) de <acorde>" is checked: the chord must be
one of the 24 triads spelled as their key signatures spell them, and a black key must be named
as :meth:`Triad.spell` names its pitch class in that chord's key — so never "La♯ of Si♭
major", never "Sol♯" in F minor. A white key is named by its plain letter, the letter a card
lands there by (D8): "Fa of Fa♯ major", never "Mi♯".
"""

from __future__ import annotations

import asyncio
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

from musicgames import ALL_TRIADS, Naming, Note, triad
from musicgames.duel import EndTurn, LockIn, Place
from musicgames.widgets.keyboard_duel import play_keyboard_duel
from tests.keyboard_duel_page import Pager

_NOTE = r"(?:Do|Re|Mi|Fa|Sol|La|Si|[A-G])[♯♭𝄪𝄫]?"
_KEY_OF_CHORD = re.compile(
    rf"(?<![\w♯♭])(?P<note>{_NOTE})(?: \((?:fff|ff|f)\))? (?:of|de) "
    rf"(?P<root>{_NOTE}) (?P<quality>major|minor|mayor|menor)\b"
)
_QUALITY = {"major": "major", "mayor": "major", "minor": "minor", "menor": "minor"}
_WHITE_KEYS = (0, 2, 4, 5, 7, 9, 11)  # pitch classes of the white keys


def _texts(value: Any) -> Iterator[str]:
    """Every string in what the page is sent (drawings left out: they are tested apart)."""
    if isinstance(value, str):
        if not value.lstrip().startswith("<svg"):
            yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _texts(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _texts(item)


def _note(name: str) -> tuple[Note, Naming]:
    """A note name without octave, read in the naming it is written in (octave 3)."""
    if name[0] in "ABCDEFG" and not name.startswith(("Do", "Re", "Mi", "Fa", "Sol", "La", "Si")):
        return Note.parse(f"{name}4"), Naming.LETTERS
    return Note.parse(f"{name}3"), Naming.SOLFEGE


def _check(text: str) -> int:
    """Check every key-of-chord phrase in ``text``; return how many were checked."""
    found = 0
    for match in _KEY_OF_CHORD.finditer(text):
        root, naming = _note(match["root"])
        note, note_naming = _note(match["note"])
        assert note_naming is naming, f"two namings in one phrase: {text!r}"
        chord = triad(root, _QUALITY[match["quality"]])
        assert chord in ALL_TRIADS, f"{match['root']} {match['quality']} in {text!r}"
        if note.pitch_class in _WHITE_KEYS:  # a white key: its plain letter
            spelled = Note.parse(note.pitch_class + 60).label(naming, octave=False)
        else:
            spelled = chord.tone_name(note.pitch_class, naming)
        assert match["note"] == spelled, f"{match['note']} should be {spelled} in {text!r}"
        found += 1
    return found


async def _walk(seed: int, language: str, naming: Naming) -> tuple[int, set[str]]:
    """Play a seeded game against the computer; check every text; (phrases, texts)."""
    rng = random.Random(seed)
    widget = play_keyboard_duel("casual", seed=seed, language=language, naming=naming, pause=0)
    page = Pager(widget)
    checked, seen = 0, set()

    def read() -> None:
        nonlocal checked
        for text in [*_texts(widget.table), *widget.log_lines()]:
            if text not in seen:
                seen.add(text)
                checked += _check(text)

    for _ in range(3000):
        await widget.settle()
        read()
        table = widget.table
        if table["screen"] == "game_over":
            break
        if table["screen"] == "round_end":
            page.send({"type": "continue"})
            continue
        state = widget.state
        assert state is not None
        legal = state.legal_actions()
        if rng.random() < 0.15:  # an illegal placement: the engine's refusal names the key
            key = rng.randrange(24)
            hand = state.hand(0)
            wrong = [Place((c,), key) for c in hand if Place((c,), key) not in legal]
            if wrong:
                page.act(wrong[0])
                read()
        if rng.random() < 0.1:
            page.send({"type": "hint"})
            read()
        choice = rng.choice([a for a in legal if a not in (LockIn(), EndTurn())] or legal)
        page.act(choice)
    else:  # pragma: no cover - a game always ends
        raise AssertionError("the game did not end")
    read()
    widget.close()
    return checked, seen


_GAMES = [
    (seed, language, naming)
    for seed in (11, 12)
    for language in ("es", "en")
    for naming in (Naming.SOLFEGE, Naming.LETTERS)
]


@pytest.mark.parametrize(
    ("seed", "language", "naming"),
    # One game in the quick loop; the other seven (both languages, both namings) with the slow.
    [pytest.param(*g, marks=[pytest.mark.slow] if i else []) for i, g in enumerate(_GAMES)],
)
def test_every_key_named_in_a_duel_game_is_spelled_in_its_chords_key(
    seed: int, language: str, naming: Naming
) -> None:
    checked, seen = asyncio.run(_walk(seed, language, naming))
    assert checked >= 30, f"only {checked} key-of-chord phrases in {len(seen)} texts"
    print(f"{language} {naming.value} seed {seed}: {checked} phrases in {len(seen)} texts")


def test_the_check_catches_a_sharp_in_a_flat_key() -> None:
    with pytest.raises(AssertionError, match="La♯ should be Si♭"):
        _check("Negro coloca una ficha en La♯ (fff) de Si♭ mayor.")
    with pytest.raises(AssertionError, match="G♯ should be A♭"):
        _check("White places a token on G♯ (ff) of F minor.")
    with pytest.raises(AssertionError, match="Mi♯ should be Fa"):
        _check("White places a token on Mi♯ of Fa♯ major.")
    with pytest.raises(AssertionError, match="C♭ should be B"):
        _check("Black places a token on C♭ of E♭ minor.")
    with pytest.raises(AssertionError, match="A♯ major"):
        _check("a token on C♯ of A♯ major")
    assert _check("on B♭ (fff) of B♭ major and E♭ of B♭ major") == 2
    assert _check("en Sol♭ de Mi♭ mayor, La de Re mayor") == 2
