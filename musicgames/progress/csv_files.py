"""Answers as CSV: the teacher's export, and reading exports back (also as spreadsheets save
them: UTF-8 or UTF-16 with a byte-order mark, Windows-1252; commas, semicolons or tabs).

Every cell read is checked as an :class:`~musicgames.progress.answers.Answer`; a bad line is
refused naming it (:class:`~musicgames.progress.errors.ProgressCsvError`), or, when a class
folder is read, listed as a line that was not read.
"""

from __future__ import annotations

import codecs
import csv
import io
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from musicgames.progress.answers import CSV_COLUMNS, Answer, csv_text, quoted
from musicgames.progress.errors import ProgressCsvError

__all__ = ["CSV_FIELD_LIMIT", "decode_csv", "export_csv", "read_csv", "read_csv_lines"]


def export_csv(answers: Iterable[Answer], target: str | os.PathLike[str] | io.TextIOBase) -> int:
    """Write answers as CSV (a header line, then one line per answer); return how many."""
    if isinstance(target, io.TextIOBase):
        return _write_csv(answers, target)
    with Path(target).open("w", newline="", encoding="utf-8") as handle:
        return _write_csv(answers, handle)


def _write_csv(answers: Iterable[Answer], handle: Any) -> int:
    writer = csv.writer(handle)
    writer.writerow(CSV_COLUMNS)
    count = 0
    for answer in answers:
        writer.writerow(answer.to_csv_row())
        count += 1
    return count


def read_csv(source: str | os.PathLike[str] | io.TextIOBase) -> list[Answer]:
    """Read answers from a CSV export, checking every cell (a bad line raises
    :class:`ProgressCsvError` naming it).

    A file is read as spreadsheets save it: UTF-8 with or without a byte-order mark, UTF-16
    with one, or else Windows-1252 (Latin-1) — see :func:`decode_csv`; with commas,
    semicolons (European Excel, where ``812,5`` is a number) or tabs between cells.
    """
    answers, problems = read_csv_lines(source, strict=True)
    return answers


def decode_csv(data: bytes) -> tuple[str, str]:
    """The text of a CSV file's bytes and the encoding it was read in.

    A byte-order mark says UTF-8 or UTF-16; text that is valid UTF-8 is UTF-8 (text in
    another encoding almost never is, once it has accents); anything else is read as
    Windows-1252, the encoding Excel on Windows saves "CSV" in (bytes Windows-1252 leaves
    undefined are read as Latin-1).

    >>> decode_csv("José".encode("cp1252")), decode_csv("\ufeffJosé".encode("utf-8"))
    (('José', 'cp1252'), ('José', 'utf-8-sig'))
    """
    if data.startswith(codecs.BOM_UTF8):
        return data[len(codecs.BOM_UTF8) :].decode("utf-8", errors="replace"), "utf-8-sig"
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return data.decode("utf-16", errors="replace"), "utf-16"
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        pass
    try:
        return data.decode("cp1252"), "cp1252"
    except UnicodeDecodeError:
        return data.decode("latin-1"), "latin-1"


#: The longest CSV cell read (the csv module's own limit is 128 kB); longer cells are
#: reported as a bad line, not as a crash.
CSV_FIELD_LIMIT = 16 * 1024 * 1024
_MAX_CSV_BYTES = 256 * 1024 * 1024


def read_csv_lines(
    source: str | os.PathLike[str] | io.TextIOBase, *, strict: bool
) -> tuple[list[Answer], list[tuple[int, str]]]:
    """The answers of a CSV export, and (when not ``strict``) the lines that were not read:
    each line's number and why. A file that is empty or too large is refused whole."""
    if isinstance(source, io.TextIOBase):
        return _parse_csv(source.read(), "<text>", strict=strict)
    path = Path(source)
    size = path.stat().st_size
    if size == 0:
        raise ProgressCsvError(f"{path.name} is empty (0 bytes)", reason="empty")
    if size > _MAX_CSV_BYTES:
        raise ProgressCsvError(f"{path.name} is too large for a progress export ({size} bytes)",
                               reason="large")
    text, _encoding = decode_csv(path.read_bytes())
    return _parse_csv(text, path.name, strict=strict)


def _delimiter(first_line: str) -> str:
    for delimiter in (",", ";", "\t"):
        cells = next(csv.reader([first_line], delimiter=delimiter), [])
        if tuple(cell.strip() for cell in cells) == CSV_COLUMNS:
            return delimiter
    return ","


def _parse_csv(text: str, name: str, *, strict: bool
               ) -> tuple[list[Answer], list[tuple[int, str]]]:
    """The answers of a CSV text, and (when not ``strict``) the lines that were not read:
    each line's number and why."""
    if csv.field_size_limit() < CSV_FIELD_LIMIT:
        csv.field_size_limit(CSV_FIELD_LIMIT)
    if not text.strip():
        raise ProgressCsvError(f"{name} is empty", reason="empty")
    first_line = text.lstrip("\ufeff").split("\n", 1)[0].rstrip("\r")
    delimiter = _delimiter(first_line)
    reader = csv.reader(io.StringIO(text.lstrip("\ufeff"), newline=""), delimiter=delimiter)
    try:
        header = next(reader, None)
    except csv.Error as err:
        raise ProgressCsvError(f"{name}, line 1: {err}", reason="header") from None
    if header is None or tuple(cell.strip() for cell in header) != CSV_COLUMNS:
        raise ProgressCsvError(
            f"{name}: the first line must be the header {','.join(CSV_COLUMNS)}, "
            f"not {quoted(first_line, 60)}", reason="header"
        )
    answers: list[Answer] = []
    problems: list[tuple[int, str]] = []
    line_number = 1
    while True:
        line_number = reader.line_num + 1
        try:
            cells = next(reader)
        except StopIteration:
            break
        except csv.Error as err:
            problem = f"{name}, line {line_number}: {err}"
            if strict:
                raise ProgressCsvError(problem) from None
            problems.append((line_number, problem))
            break  # the reader cannot go on after a broken cell
        if not any(cell.strip() for cell in cells):
            continue  # an empty line, as spreadsheets leave at the end
        try:
            answers.append(_csv_answer(cells, delimiter))
        except ValueError as err:
            problem = f"{name}, line {line_number}: {err}"
            if strict:
                raise ProgressCsvError(problem) from None
            problems.append((line_number, problem))
    return answers, problems


def _csv_answer(cells: list[str], delimiter: str) -> Answer:
    if len(cells) != len(CSV_COLUMNS):
        raise ProgressCsvError(f"{len(cells)} cells, expected {len(CSV_COLUMNS)}")
    student, time, activity, item, answer, correct_text, ms_text = cells
    try:
        correct = {"": None, "1": True, "0": False}[correct_text.strip()]
    except KeyError:
        raise ProgressCsvError(f"correct {quoted(correct_text)} must be 1, 0 or empty") from None
    ms_text = ms_text.strip()
    if delimiter != ",":
        ms_text = ms_text.replace(",", ".")  # a decimal comma, as European Excel writes
    try:
        ms = float(ms_text) if ms_text else None
    except ValueError:
        raise ProgressCsvError(f"response_ms {quoted(ms_text)} is not a number") from None
    return Answer(csv_text(student), time.strip(), activity.strip(), csv_text(item),
                  csv_text(answer), correct, ms)
