"""How a game of Note Snap went, in the table's language: why it ended, how the person alone
at the table played (matches, misses, false slaps, the notes hesitated on) and each seat's
place. The widget sends these to the page when a game is over."""

from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence
from typing import Any

from musicgames.i18n import counted, text
from musicgames.snap import CALL_CYCLE, SnapState
from musicgames.theory import Note
from musicgames.widgets.note_snap.records import CardRecord
from musicgames.widgets.note_snap.settings import (
    SnapSettings,
    call_names,
    single_person,
)

__all__ = ["PRACTICE_MOST", "ended_sentences", "standings", "summary", "summary_sentences"]

#: The most notes a practice opened at the end of a game drills.
PRACTICE_MOST = 6


def summary(state: SnapState, settings: SnapSettings, cards: Sequence[CardRecord]
            ) -> dict[str, Any]:
    """How the person alone at the table played this game (empty with no such person):
    why it ended, the mean reaction on matches slapped, matches missed, false slaps, and
    the notes hesitated on (missed, or slapped slower than 1.25 × the person's median).
    ``practice`` is the notes to practise: those hesitated on, then those slapped by
    mistake. ``ended`` and ``lines`` are the sentences the page shows, in the table's
    language; ``advice`` names the notes to practise, or praises a game with no
    hesitation, no false slap and no miss."""
    person = single_person(settings)
    out: dict[str, Any] = {"ended_by": state.ended_by, "flips": state.flips,
                           "ended": ended_sentences(state, settings)}
    if person is None:
        return out
    played = [c for c in cards if c.slappable]
    hits = [c.reactions[person] for c in played if c.match and c.reactions[person]
            is not None]
    times = [ms for ms in hits if ms is not None]
    median = statistics.median(times) if times else None
    hesitated: dict[str, int] = {}
    for c in played:
        ms = c.reactions[person]
        if c.match and (ms is None or (median is not None and ms > 1.25 * median)):
            hesitated[c.note] = hesitated.get(c.note, 0) + 1
    missed_matches = [c for c in played if c.match and c.reactions[person] is None]
    notes_ = sorted(hesitated, key=lambda n: (-hesitated[n], n))[:4]
    naming = settings.naming
    false_slaps = [c for c in played if not c.match and c.reactions[person] is not None]
    language = settings.language
    names = call_names(naming, language)
    out.update({
        "mean_ms": round(statistics.fmean(times)) if times else None,
        "matches": len(times),
        "misses": len(missed_matches),
        "false_slaps": len(false_slaps),
        "false_cards": [
            {"number": c.number, "label": Note.parse(c.note).label(naming, language=language),
             "call": names[CALL_CYCLE.index(c.called)]}
            for c in false_slaps
        ],
        "hesitated": notes_,
        "hesitated_labels": [Note.parse(n).label(naming, language=language) for n in notes_],
    })
    practice = list(notes_)
    for c in false_slaps:
        if c.note not in practice and len(practice) < PRACTICE_MOST:
            practice.append(c.note)
    out["practice"] = practice
    out["practice_labels"] = [Note.parse(n).label(naming, language=language) for n in practice]
    out["lines"] = summary_sentences(out, language)
    out["advice"] = (
        text("snap.summary.practise", language, notes=", ".join(out["practice_labels"]))
        if practice else text("snap.summary.none", language))
    return out


def ended_sentences(state: SnapState, settings: SnapSettings) -> list[str]:
    """Why the game ended, and how many cards were flipped (said once: a game ended by
    its card limit says it in its reason)."""
    language = settings.language
    if state.ended_by is None:
        return []
    config = state.config
    cards = counted("snap.summary.cards", config.card_limit or 0, language)
    minutes = settings.minutes
    why = text(f"snap.over.{state.ended_by}", language, limit=config.hand_limit,
               cards=cards, minutes=f"{minutes:g}")
    if state.ended_by == "card_limit":
        return [why]
    return [why, counted("snap.summary.flips", state.flips, language)]


def summary_sentences(summary: Mapping[str, Any], language: str) -> list[str]:
    """The person's game in whole sentences, each count in its singular or plural."""
    lines: list[str] = []
    if summary["mean_ms"] is None:
        lines.append(text("snap.summary.mean_none", language))
    else:
        lines.append(counted("snap.summary.mean", summary["matches"], language,
                             ms=summary["mean_ms"]))
    lines.append(counted("snap.summary.misses", summary["misses"], language))
    false_line = counted("snap.summary.false", summary["false_slaps"], language)
    if summary["false_cards"]:
        cards = ", ".join(
            text("snap.summary.false_card", language, note=c["label"], call=c["call"])
            for c in summary["false_cards"])
        those = counted("snap.summary.false_cards", len(summary["false_cards"]), language,
                        cards=cards)
        false_line = f"{false_line} {those}"
    lines.append(false_line)
    return lines


def standings(state: SnapState, names: Sequence[str]) -> list[dict[str, Any]]:
    """Every seat's place at the end of the game: the fewest cards in hand first (equal
    counts share a place), with its name and card count. The winners come first even
    when they hold cards (a game ended by S11 is won with none). ``names`` are the seats'.
    """
    sizes = state.hand_sizes
    winners = set(state.winners)
    key = [(0 if seat in winners else 1, size) for seat, size in enumerate(sizes)]
    order = sorted(range(len(sizes)), key=lambda seat: (key[seat], seat))
    return [
        {"seat": seat, "name": names[seat], "cards": sizes[seat],
         "place": 1 + sum(1 for other in key if other < key[seat])}
        for seat in order
    ]
