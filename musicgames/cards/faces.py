"""The printed faces: Note Snap note and guide cards, Keyboard Duel Compose and piano cards,
Dice Tokens, card backs and the rules page. Each face is SVG in millimetres.

>>> from musicgames.cards.layout import POKER
>>> from musicgames.theory import Note
>>> face = snap_card(Note.parse("Do5"))(POKER)
>>> face.count('class="staff"'), face.count('<use xlink:href="#note" transform="rotate(180')
(1, 1)
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import partial

from musicgames.cards.layout import FONT, PRINTER_MARGIN, CardSize, Paper, footer_line, page_svg
from musicgames.cards.staff import nested_staff
from musicgames.cards.text import paragraph, svg_text, text_width
from musicgames.duel.cards import ComposeCard, Corner, PianoCard
from musicgames.duel.kernel import MAX_POWER, dice_for_power
from musicgames.i18n import text
from musicgames.render import CHORD_TONE_COLOURS, keyboard_svg, staff_svg
from musicgames.snap.cards import guide_card as guide_card_notes
from musicgames.theory import LETTERS, SYLLABLES, SYLLABLES_BY_LANGUAGE, Naming, Note

__all__ = [
    "GUIDE",
    "compose_back",
    "compose_card",
    "guide_card",
    "piano_back",
    "piano_card",
    "rules_page",
    "snap_back",
    "snap_card",
    "token_sheet",
]

#: The size of a guide card (S2): the width of three cards, so its staves are readable.
GUIDE = CardSize(189.0, 124.0)

_INK = "#222"
_INSET = 2.5  # mm from the cut line to a card's frame
#: One colour per letter C D E F G A B on the Compose cards, so runs of a letter stand out.
LETTER_COLOURS = ("#d1495b", "#edae49", "#66a182", "#00798c", "#2e4057", "#8d5a97", "#b56b45")


def _frame(card: CardSize, stroke: str = _INK, fill: str = "none", width: float = 0.4) -> str:
    return (
        f'<rect x="{_INSET}" y="{_INSET}" width="{card.width - 2 * _INSET}" '
        f'height="{card.height - 2 * _INSET}" rx="3" fill="{fill}" stroke="{stroke}" '
        f'stroke-width="{width}"/>'
    )


def _twice(card: CardSize, body: str, name: str) -> str:
    """``body``, and again turned 180° about the card's centre for the player across the
    table: the second is a ``<use>`` of the first, so the card has each id once."""
    return (
        f'<g id="{name}">{body}</g>'
        f'<use xlink:href="#{name}" transform="rotate(180 {card.width / 2} {card.height / 2})"/>'
    )


def _name(index: int, naming: Naming, language: str = "en") -> str:
    solfege = SYLLABLES_BY_LANGUAGE.get(language, SYLLABLES)
    return (solfege if naming is Naming.SOLFEGE else LETTERS)[index]


# -- Note Snap --------------------------------------------------------------------------------

_SNAP_STAFF = 13.0  # mm from the staff's top line to its bottom line on a note card


def _snap_card(note: Note, card: CardSize) -> str:
    half = nested_staff(
        staff_svg(note), centre_x=card.width / 2, middle_y=card.height / 4, staff_height=_SNAP_STAFF
    )
    divider = (
        f'<line x1="{_INSET + 4}" y1="{card.height / 2}" x2="{card.width - _INSET - 4}" '
        f'y2="{card.height / 2}" stroke="#ccc" stroke-width="0.3" stroke-dasharray="1 1"/>'
    )
    return _frame(card) + divider + _twice(card, half, "note")


def snap_card(note: Note) -> partial[str]:
    """A Note Snap card (S1): the note on the staff, and again turned 180°; no name."""
    return partial(_snap_card, note)


def _guide_half(card: CardSize, naming: Naming, language: str) -> str:
    height = card.height / 2
    parts = [svg_text(card.width / 2, 8.5, text("snap.guide.title", language), size=4.2,
                      anchor="middle", bold=True)]
    staff = 7.5
    named = guide_card_notes(naming, language)  # the notes and names of the guide card (S2)
    rows = (named[:7], named[7:])
    for row, notes in enumerate(rows):
        middle = 20.0 + row * (height - 38.0)
        parts.append(
            nested_staff(staff_svg([note for note, _ in notes],
                                   labels=[label for _, label in notes]),
                         centre_x=card.width / 2,
                         middle_y=middle, staff_height=staff)
        )
    return "".join(parts)


def _guide_card(naming: Naming, language: str, card: CardSize) -> str:
    half = _guide_half(card, naming, language)
    divider = (
        f'<line x1="{_INSET + 6}" y1="{card.height / 2}" x2="{card.width - _INSET - 6}" '
        f'y2="{card.height / 2}" stroke="#ccc" stroke-width="0.3" stroke-dasharray="1 1"/>'
    )
    return _frame(card) + divider + _twice(card, half, "guide")


def guide_card(naming: Naming, language: str) -> partial[str]:
    """The guide card (S2): all 15 notes on the staff, named, twice (once turned 180°)."""
    return partial(_guide_card, naming, language)


def _back(card: CardSize, title: str, subtitle: str, colour: str) -> str:
    inner = (
        f'<rect x="{_INSET + 2}" y="{_INSET + 2}" width="{card.width - 2 * _INSET - 4}" '
        f'height="{card.height - 2 * _INSET - 4}" rx="2" fill="{colour}"/>'
    )
    lines = "".join(
        f'<line x1="{_INSET + 6}" x2="{card.width - _INSET - 6}" y1="{y:.2f}" y2="{y:.2f}" '
        'stroke="#fff" stroke-opacity="0.35" stroke-width="0.5"/>'
        for y in (card.height / 2 - 6 + 3 * i for i in range(5))
    )
    size = min(6.0, (card.width - 16) / max(1.0, text_width(title, size=1, bold=True)))
    words = svg_text(card.width / 2, card.height / 2 - 10, title, size=size, anchor="middle",
                     bold=True, fill="#fff")
    if subtitle:
        words += svg_text(card.width / 2, card.height / 2 - 10 - size * 1.2, subtitle,
                          size=size * 0.6, anchor="middle", fill="#fff")
    return _frame(card, fill="#fff") + inner + lines + _twice(card, words, "title")


def snap_back(language: str) -> partial[str]:
    """The back of a Note Snap card."""
    return partial(_back, title=text("snap.title", language), subtitle="", colour="#2e4057")


# -- Keyboard Duel: Compose cards -----------------------------------------------------------

_DOES = {
    Corner.ONE: "one", Corner.TWO: "two", Corner.THREE: "three",
    Corner.UP: "up", Corner.DOWN: "down", Corner.WILD: "wild",
}
_WILD_MARK = "★"


def _compose_card(card_: ComposeCard, naming: Naming, language: str, card: CardSize) -> str:
    wild = card_.letter is None
    colour = "#555" if card_.letter is None else LETTER_COLOURS[card_.letter]
    big = (text("duel.card.wild", language) if card_.letter is None
           else _name(card_.letter, naming, language))
    symbol = _WILD_MARK if wild else card_.corner.symbol
    label = big if wild else f"{big}{symbol}"
    corner = (
        svg_text(_INSET + 4.5, _INSET + 9, "" if wild else big, size=6.5, bold=True, fill=colour)
        + svg_text(_INSET + 4.5, _INSET + 18, symbol, size=8, bold=True, fill=_INK)
    )
    band = (
        f'<rect x="{_INSET}" y="{card.height / 2 - 14}" width="{card.width - 2 * _INSET}" '
        f'height="20" fill="{colour}"/>'
    )
    size = min(13.0, (card.width - 12) / max(1.0, text_width(big, size=1, bold=True)))
    centre = svg_text(card.width / 2, card.height / 2 + size * 0.36 - 4, big, size=size,
                      anchor="middle", bold=True, fill="#fff")
    does, _ = paragraph(
        card.width / 2, card.height / 2 + 12,
        text(f"duel.card.does.{_DOES[card_.corner]}", language, card=label),
        width=card.width - 16, size=2.6, anchor="middle",
    )
    return _frame(card) + band + centre + does + _twice(card, corner, "corner")


def compose_card(card_: ComposeCard, naming: Naming, language: str) -> partial[str]:
    """A Compose card (D5): its letter and corner (1, 2, 3, ↑, ↓) or Wild, and what it does."""
    return partial(_compose_card, card_, naming, language)


def compose_back(language: str) -> partial[str]:
    """The back of a Compose card."""
    return partial(_back, title=text("duel.title", language),
                   subtitle=text("cards.compose", language), colour="#00798c")


# -- Keyboard Duel: piano cards -------------------------------------------------------------

_KEY_RECT = re.compile(r'data-key="(\d+)"[^>]*? x="([\d.]+)" y="0" width="([\d.]+)" '
                       r'height="([\d.]+)"')


def key_names(piano: PianoCard) -> dict[int, Note]:
    """Every key of a piano card (pitch class → note), named as the game names it
    (:meth:`PianoCard.key_note`): a white key its plain letter, a black key spelled in the
    chord's key."""
    return {pc: piano.key_note(pc) for pc in range(12)}


def _piano_card(piano: PianoCard, naming: Naming, language: str, card: CardSize) -> str:
    chord_pcs = piano.chord_pitch_classes
    keyboard = str(keyboard_svg(1, chord=piano.triad, marks=piano.marks))
    names = key_names(piano)
    labels: list[str] = []
    for key, x, width, height in _KEY_RECT.findall(keyboard):
        pc, left, w, h = int(key), float(x), float(width), float(height)
        black = h < 90
        strong = pc in chord_pcs
        size = 6.5 if black else 8.5
        fill = "#fff" if black and not strong else _INK
        y = h - (18 if black else 8)
        weight = ' font-weight="bold"' if strong else ""
        labels.append(
            f'<text x="{left + w / 2:.1f}" y="{y:.1f}" font-family="{FONT}" font-size="{size}" '
            f'text-anchor="middle" fill="{fill}"{weight}>'
            f"{names[pc].label(naming, octave=False, language=language)}</text>"
        )
    keyboard = keyboard.replace("</svg>", "".join(labels) + "</svg>")
    match = re.search(r'viewBox="([-\d.]+) ([-\d.]+) ([\d.]+) ([\d.]+)"', keyboard)
    assert match is not None
    vb_w, vb_h = float(match.group(3)), float(match.group(4))
    top = _INSET + 11.0  # under the chord's name
    height = card.height - _INSET - 2.5 - top
    width = min(card.width - 2 * _INSET - 8, height * vb_w / vb_h)
    height = width * vb_h / vb_w
    nested = re.sub(r'^<svg [^>]*>', (
        f'<svg x="{(card.width - width) / 2:.2f}" y="{top:.2f}" width="{width:.2f}" '
        f'height="{height:.2f}" viewBox="{match.group(1)} {match.group(2)} {vb_w} {vb_h}">'
    ), keyboard, count=1)
    title = svg_text(_INSET + 4, _INSET + 7, piano.name(naming, language), size=5.2, bold=True)
    tones = "  ".join(
        f"{note.label(naming, octave=False, language=language)} {mark}"
        for note, mark in piano.tone_marks
    )
    legend = svg_text(card.width - _INSET - 4, _INSET + 7, tones, size=3.2, anchor="end",
                      fill="#444")
    swatches = "".join(
        f'<rect x="{card.width - _INSET - 4 - 3 * (3 - i):.2f}" y="{_INSET + 8.6:.2f}" '
        f'width="2.4" height="1.2" fill="{c}"/>'
        for i, c in enumerate(CHORD_TONE_COLOURS)
    )
    return _frame(card) + title + legend + swatches + nested


def piano_card(piano: PianoCard, naming: Naming, language: str) -> partial[str]:
    """A piano card (D3, D4): one octave, the chord tones coloured and marked fff, ff, f."""
    return partial(_piano_card, piano, naming, language)


def piano_back(language: str) -> partial[str]:
    """The back of a piano card."""
    return partial(_back, title=text("duel.title", language),
                   subtitle=text("cards.piano", language), colour="#d1495b")


# -- Keyboard Duel: Dice Tokens and the rules -------------------------------------------------

_TOKEN_RADIUS = 17.0  # mm, centre to corner of the hexagonal token


def _hexagon(cx: float, cy: float, r: float) -> str:
    import math

    points = " ".join(
        f"{cx + r * math.cos(math.radians(60 * i)):.2f},"
        f"{cy + r * math.sin(math.radians(60 * i)):.2f}"
        for i in range(6)
    )
    return points


def _token(cx: float, cy: float, dark: bool, seat: str) -> str:
    """One Dice Token: a hexagon with the powers 1–6 round its edges, each with its dice."""
    fill, ink = ("#222", "#fff") if dark else ("#fff", _INK)
    parts = [
        f'<polygon class="token" points="{_hexagon(cx, cy, _TOKEN_RADIUS)}" fill="{fill}" '
        f'stroke="#000" stroke-width="0.35"><title>{seat}</title></polygon>',
    ]
    apothem = _TOKEN_RADIUS * 3**0.5 / 2
    for power in range(1, MAX_POWER + 1):  # a hexagon: one edge per power (D8, D10)
        angle = 60 * (power - 1)  # power 1 at the top edge, then clockwise
        dice = dice_for_power(power)  # D11a: half the power, rounded up
        pips = "".join(
            f'<circle cx="{cx + (i - (dice - 1) / 2) * 2.2:.2f}" cy="{cy - apothem + 8.6:.2f}" '
            f'r="0.6" fill="{ink}"/>'
            for i in range(dice)
        )
        number = svg_text(cx, cy - apothem + 6.0, str(power), size=5.2, anchor="middle",
                          bold=True, fill=ink)
        parts.append(f'<g transform="rotate({angle} {cx:.2f} {cy:.2f})">{number}{pips}</g>')
    return "".join(parts)


def token_sheet(paper: Paper, language: str) -> str:
    """Five Dice Tokens for each player, White and Black, with how to use them."""
    parts = [svg_text(paper.width / 2, 22, text("cards.tokens.title", language), size=7,
                      anchor="middle", bold=True)]
    how, y = paragraph(paper.width / 2, 32, text("cards.tokens.how", language),
                       width=paper.width - 40, size=3.6, anchor="middle")
    parts.append(how)
    step = 2 * _TOKEN_RADIUS + 4
    for row, (dark, seat_key) in enumerate(((False, "duel.seat.white"), (True, "duel.seat.black"))):
        seat = text(seat_key, language)
        top = y + 14 + row * (step + 22)
        parts.append(svg_text(paper.width / 2, top, seat, size=5, anchor="middle", bold=True))
        for i in range(5):
            cx = paper.width / 2 + (i - 2) * step
            parts.append(_token(cx, top + 6 + _TOKEN_RADIUS, dark, seat))
    parts.append(footer_line(paper, text("cards.footer.tokens", language)))
    return page_svg(paper, "".join(parts))


#: The rules page: (heading key, paragraph keys), from the rules catalogue where its words
#: suit paper, and from ``cards.rules.*`` where the screen's words talk of clicks.
RULES_SECTIONS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("duel.rules.goal.head", ("duel.rules.goal",)),
    ("cards.rules.setup.head", ("cards.rules.setup",)),
    ("duel.rules.table.head", ("duel.rules.table",)),
    ("duel.rules.turn.head", ("cards.rules.turn", "cards.rules.place", "cards.rules.move")),
    ("duel.rules.amplify.head", ("cards.rules.amplify",)),
    ("duel.rules.duel.head", ("duel.rules.duel.roll", "duel.rules.duel.run",
                              "duel.rules.duel.result")),
    ("duel.rules.score.head", ("cards.rules.score",)),
    ("cards.rules.round.head", ("cards.rules.round",)),
    ("cards.tokens.title", ("cards.rules.tokens",)),
)


def rules_page(paper: Paper, naming: Naming, language: str, sections: Sequence[
        tuple[str, tuple[str, ...]]] = RULES_SECTIONS) -> str:
    """Keyboard Duel's rules on one page, in the chosen language: the text is set at the
    largest size (3.6 mm down to 2.6 mm) at which it fits the page."""
    for tenths in range(36, 25, -1):
        body = _rules_body(paper, language, sections, tenths / 10)
        if body is not None:
            break
    else:
        raise ValueError(f"the rules do not fit one {paper.name} page")
    naming_word = text(f"duel.naming.{naming.value}", language)
    body += footer_line(paper, f"{text('duel.title', language)} · {naming_word}")
    return page_svg(paper, body)


def _rules_body(paper: Paper, language: str, sections: Sequence[tuple[str, tuple[str, ...]]],
                size: float) -> str | None:
    left, width = 16.0, paper.width - 32.0
    parts = [svg_text(left, 20, text("duel.rules.title", language), size=7.0, bold=True)]
    y = 29.0
    for head, keys in sections:
        parts.append(svg_text(left, y, text(head, language), size=size * 1.22, bold=True,
                              fill="#00798c"))
        y += size * 1.6
        for key in keys:
            body, y = paragraph(left, y, text(key, language), width=width, size=size)
            parts.append(body)
            y += size * 0.3
        y += size * 0.7
    return "".join(parts) if y <= paper.height - PRINTER_MARGIN - 5 else None
