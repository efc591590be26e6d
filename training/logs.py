"""Training logs (``logs/progress.csv``, ``eval.csv``) that a kill never truncates and a
resume continues.

Each new row rewrites the whole file atomically (a few hundred rows of a few hundred
bytes: cheap next to a rollout), so a reader, ``art-gallery plot`` included, always sees
complete rows. A resumed run opens its logs at the checkpoint's step: rows past it
describe training whose weights were never saved, and are dropped, so the steps keep
increasing.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from art_gallery_env.files import atomic_write_text


class CsvLog:
    """A CSV file of rows keyed by ``step_key``; new column names are added as they come.
    An existing file is continued (from ``resume_at`` on, when given)."""

    def __init__(
        self,
        path: str | Path,
        step_key: str,
        fields: Sequence[str] = (),
        resume_at: int | None = None,
    ) -> None:
        self.path = Path(path)
        self.step_key = step_key
        self.fields: list[str] = list(fields)
        self.rows: list[dict[str, str]] = []
        self.dropped = 0
        if self.path.is_file():
            self._continue(resume_at)

    def _continue(self, resume_at: int | None) -> None:
        with self.path.open(newline="", encoding="utf-8") as handle:
            reader = csv.DictReader(handle)
            header = list(reader.fieldnames or [])
            rows = list(reader)
        self.fields += [f for f in header if f not in self.fields]
        for row in rows:
            if resume_at is None or _step(row.get(self.step_key)) <= resume_at:
                self.rows.append({k: v for k, v in row.items() if k is not None})
            else:
                self.dropped += 1
        if self.dropped:
            self._write()

    def append(self, row: Mapping[str, Any]) -> None:
        self.extend([row])

    def extend(self, rows: Iterable[Mapping[str, Any]]) -> None:
        for row in rows:
            self.fields += [k for k in row if k not in self.fields]
            self.rows.append({k: _text(v) for k, v in row.items()})
        self._write()

    def _write(self) -> None:
        buffer = io.StringIO()
        writer = csv.DictWriter(buffer, fieldnames=self.fields, restval="", lineterminator="\n")
        writer.writeheader()
        writer.writerows(self.rows)
        atomic_write_text(self.path, buffer.getvalue())


def _step(value: str | None) -> float:
    try:
        return float(value) if value else float("-inf")
    except ValueError:
        return float("-inf")


def _text(value: Any) -> str:
    return "" if value is None else str(value)
