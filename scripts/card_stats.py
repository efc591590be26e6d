"""Print the card tables of docs/cards.md as markdown.

Run from the repository root: ``.venv/bin/python scripts/card_stats.py [PATH]``
(no PATH: the packaged default set). Paste the output into docs/cards.md.
"""

from __future__ import annotations

import sys
from collections import Counter

# Runs from a checkout without installing the package.
from art_gallery_env.games.art_gallery.rules.cards import CardSet, load_card_set


def _cell(card_set: CardSet, row: int, entry: tuple[int, int] | None) -> str:
    return "–" if entry is None else f"{card_set.row_symbols[row][entry[0]]} {entry[1]}"


def painting_table(card_set: CardSet) -> list[str]:
    header = ["No.", "Title", "Artist", "Date", *card_set.row_themes]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for p in card_set.paintings:
        cells = [str(p.number), p.title, p.artist, p.date]
        cells += [_cell(card_set, r, entry) for r, entry in enumerate(p.rows)]
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def symbol_table(card_set: CardSet) -> list[str]:
    lines = [
        "| Row | Symbol | Cards | Sum of values | Values 1 / 2 / 3 |",
        "|---|---|---|---|---|",
    ]
    rows = zip(card_set.row_themes, card_set.row_symbols, strict=True)
    for r, (theme, symbols) in enumerate(rows):
        entries = [p.rows[r] for p in card_set.paintings]
        for s, symbol in enumerate(symbols):
            values = Counter(e[1] for e in entries if e is not None and e[0] == s)
            by_value = " / ".join(str(values[v]) for v in (1, 2, 3))
            lines.append(
                f"| {theme} | {symbol} | {sum(values.values())} "
                f"| {sum(v * k for v, k in values.items())} | {by_value} |"
            )
        empty = sum(e is None for e in entries)
        lines.append(f"| {theme} | *(empty)* | {empty} | – | – |")
    return lines


def histograms(card_set: CardSet) -> list[str]:
    values = Counter(e[1] for p in card_set.paintings for e in p.rows if e is not None)
    filled = Counter(sum(e is not None for e in p.rows) for p in card_set.paintings)
    lines = ["| Value | Row entries |", "|---|---|"]
    lines += [f"| {v} | {values[v]} |" for v in sorted(values)]
    lines += ["", "| Non-empty rows on a card | Cards |", "|---|---|"]
    lines += [f"| {n} | {filled[n]} |" for n in sorted(filled)]
    return lines


def main(argv: list[str]) -> None:
    card_set = load_card_set(argv[1] if len(argv) > 1 else None)
    sections = [
        [f"Card set `{card_set.name}`, fingerprint `{card_set.fingerprint}`."],
        ["### All paintings", "", *painting_table(card_set)],
        ["### Symbols per row", "", *symbol_table(card_set)],
        ["### Values and filled rows", "", *histograms(card_set)],
    ]
    print("\n\n".join("\n".join(section) for section in sections))


if __name__ == "__main__":
    main(sys.argv)
