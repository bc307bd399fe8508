"""A seat's secret word on its screens: what a set-up may be, and the rulebook's default split.

Readings of what the rulebook leaves open (docs/reflecto.md says the same):
- A word shorter than the seat's letter screens leaves the rest blank (the rulebook's
  4-letter word on 5 screens, generalised); blanks are removed first, or, for a seat playing
  the younger player's variant, last. A word has at least `min_letters` letters.
- A longer word is spread "evenly": every screen holds at least one letter, the counts
  differ by at most one and never decrease in word order (the rulebook's 8 letters on 5
  screens: 1, 1, 2, 2, 2). A younger player may spread them any way, a screen holding at
  least one and at most `max_letters_per_screen` letters.
- Letters are written in capitals; any alphabetic character counts as a letter.
"""

from __future__ import annotations

from itertools import combinations

from companion.games.reflecto.rules.actions import Setup
from companion.games.reflecto.rules.board import Board

RULE_SETUP = "each player sets up their own screens once, before the first move"
RULE_WORD = "a secret word of letters, written on the letter screens in word order"
RULE_SPLIT = (
    "a longer word is spread evenly over the letter screens (the younger player "
    "may spread it as they like)"
)
RULE_BLANK = "a shorter word leaves blank screens, removed first (last for the younger player)"
RULE_COLUMNS = "all of a player's screens stand on their first row, one per square"


def normalise_word(word: str) -> str:
    return "".join(word.split()).upper()


def even_split(word: str, letter_screens: int, blank_last: bool = False) -> tuple[str, ...]:
    """The rulebook's default way to write `word` on `letter_screens` screens."""
    n = len(word)
    if n < letter_screens:
        blanks = ("",) * (letter_screens - n)
        letters = tuple(word)
        return letters + blanks if blank_last else blanks + letters
    small, extra = divmod(n, letter_screens)
    sizes = [small] * (letter_screens - extra) + [small + 1] * extra
    chunks, at = [], 0
    for size in sizes:
        chunks.append(word[at : at + size])
        at += size
    return tuple(chunks)


def setup_problem(
    setup: Setup, board: Board, letter_screens: int, younger: bool
) -> tuple[str, str] | None:
    """(rule, detail) when `setup` is not a legal set-up for its seat, else None."""
    chunks = setup.chunks
    if len(chunks) != letter_screens:
        return RULE_WORD, f"{letter_screens} letter screens, {len(chunks)} given"
    for chunk in chunks:
        if chunk and not (chunk.isalpha() and chunk == chunk.upper()):
            return RULE_WORD, "letters only, in capitals"
        if len(chunk) > board.max_letters_per_screen:
            return RULE_SPLIT, f"at most {board.max_letters_per_screen} letters on a screen"
    word = setup.word
    if len(word) < board.min_letters:
        return RULE_WORD, f"the word has at least {board.min_letters} letters"
    blanks = [i for i, c in enumerate(chunks) if not c]
    if blanks:
        if any(len(c) > 1 for c in chunks):
            return RULE_BLANK, "with a blank screen, one letter per screen"
        front = blanks == list(range(len(blanks)))
        back = blanks == list(range(letter_screens - len(blanks), letter_screens))
        if not (front or (younger and back)):
            return RULE_BLANK, "the blank screens come first in the removal order"
    elif not younger and chunks != even_split(word, letter_screens):
        return RULE_SPLIT, f"{'/'.join(even_split(word, letter_screens))} for {word}"
    columns = [*setup.letter_columns, *setup.mirror_columns]
    mirrors = board.screens_per_player - letter_screens
    if len(setup.letter_columns) != letter_screens or len(setup.mirror_columns) != mirrors:
        return RULE_COLUMNS, f"{letter_screens} letter and {mirrors} mirror screens"
    if len(set(columns)) != len(columns) or not all(0 <= c < board.cols for c in columns):
        return RULE_COLUMNS, f"distinct columns 0..{board.cols - 1}"
    hinted = setup.hinted
    if len(set(hinted)) != len(hinted) or not all(0 <= r < letter_screens for r in hinted):
        return RULE_WORD, "order hints name ranks of letter screens"
    return None


def example_setups(board: Board, seat: int, letter_screens: int) -> list[Setup]:
    """Set-ups from the model's example words, letters left to right in word order, mirrors
    in every pair of columns: the finite sample `legal_actions` can offer of a free choice."""
    mirrors = board.screens_per_player - letter_screens
    words = [
        w
        for w in board.words
        if board.min_letters <= len(w) <= letter_screens * board.max_letters_per_screen
    ]
    found = []
    for word in words:
        chunks = even_split(word, letter_screens)
        for mirror_cols in combinations(range(board.screens_per_player), mirrors):
            letters = tuple(c for c in range(board.screens_per_player) if c not in mirror_cols)
            found.append(Setup(seat, chunks, letters, mirror_cols))
    return found
