"""Pictures of a Teufel, Teufel! table: ``ansi`` text and an ``rgb`` image.

Cards read ``A3`` (letter A of colour 3), ``DEV`` (devil), ``TWR`` (tower), ``###`` (face
down); the devil space shows ``@n``, its ``n`` devil markers. Discs follow in brackets by
seat. With a ``viewer`` seat, face-down cards that seat has peeked at show in lower case and the
rest as ``###``; without one (the whole truth) every face-down card shows in lower case.
Mid-move after a hall pass a line names the square the move began on and the cards it turned
(the picture frames them: the start in orange, the turned cards in yellow).
"""

import numpy as np

from envs.core.render import COLOURS, Canvas, text_image

from .data import (
    CARD_COLOUR, CARD_KIND, CARD_LETTER, DEVIL_CARD, DEVIL_SPACE, LETTERS, NUM_LETTERS, NUM_SQUARES, PERSON,
    PHASE_NAMES, SIDE, card_name, square_name,
)
from .engine import LEFT, LOST, ON_BOARD

SEAT_COLOURS = ("red", "blue", "green", "yellow", "purple", "orange")
_STATUS = {LEFT: "left the board", LOST: "lost"}


def card_code(state, square, viewer=None):
    card = int(state.board[square])
    if square == DEVIL_SPACE:
        return f"@{int(state.devils_home)} "
    if card < 0:
        return " . "
    face_up = bool(state.card_up[card])
    if not face_up and viewer is not None and not state.known[viewer, card]:
        return "###"
    kind = CARD_KIND[card]
    code = f"{LETTERS[CARD_LETTER[card]]}{CARD_COLOUR[card]} " if kind == PERSON else (
        "DEV" if kind == DEVIL_CARD else "TWR")
    return code if face_up else code.lower()


def _discs_at(state, square):
    return [seat for seat in range(int(state.num_players))
            if state.status[seat] == ON_BOARD and state.disc[seat] == square]


def ansi(state, config, viewer=None):
    lines = ["      " + "".join(f"{c:<9}" for c in "abcdefg")]
    for row in range(SIDE):
        cells = []
        for col in range(SIDE):
            square = row * SIDE + col
            discs = "".join(str(s) for s in _discs_at(state, square))
            cells.append(f"{card_code(state, square, viewer)}{'[' + discs + ']' if discs else '':<5} ")
        lines.append(f"  {row + 1}   " + "".join(cells))
    lines.append("")
    for seat in range(int(state.num_players)):
        letters = "".join(LETTERS[i] if state.letters[seat, i] else "-" for i in range(NUM_LETTERS))
        if state.status[seat] != ON_BOARD:
            where = _STATUS[int(state.status[seat])]
        elif state.disc[seat] >= 0:
            where = f"on the board at {square_name(state.disc[seat])}"
        else:
            where = "not placed yet"
        lines.append(f"player_{seat} ({SEAT_COLOURS[seat]}): letters {letters}, devils {int(state.devils[seat])}, "
                     f"{where}")
    if state.terminal:
        lines.append("game over")
    else:
        lines.append(f"phase {PHASE_NAMES[int(state.phase)]}, turn of player_{int(state.turn_owner)}, "
                     f"to act: player_{int(state.current_player)}")
    if state.move_from >= 0:
        lines.append(chain_line(state))
    return "\n".join(lines)


def turned_squares(state):
    return [square for square in range(NUM_SQUARES) if state.move_turned[square]]


def chain_line(state):
    """Mid-move after a hall pass: where the move began and what it turned over (public)."""
    turned = ", ".join(f"{square_name(s)} ({card_name(state.board[s])})" for s in turned_squares(state))
    return (f"hall pass: this move began on {square_name(state.move_from)} and turned over {turned}; "
            f"go on or stop here")


CELL = 64
MARGIN = 24


def rgb(state, config):
    """The table as a person would see it: face-down cards show their backs."""
    size = SIDE * CELL + 2 * MARGIN
    canvas = Canvas(size, size)
    for i in range(SIDE):  # coordinates as in the action names: a-g across, 1-7 down
        canvas.text(MARGIN + i * CELL + CELL // 2, MARGIN // 2, "abcdefg"[i], size=12, anchor="mm")
        canvas.text(MARGIN // 2, MARGIN + i * CELL + CELL // 2, str(i + 1), size=12, anchor="mm")
    for square in range(NUM_SQUARES):
        row, col = divmod(square, SIDE)
        x, y = MARGIN + col * CELL, MARGIN + row * CELL
        _draw_square(canvas, state, square, x, y)
        if state.move_from == square or state.move_turned[square]:
            frame = "yellow" if state.move_turned[square] else "orange"
            canvas.rect(x + 1, y + 1, CELL - 2, CELL - 2, outline=COLOURS[frame], width=4)
        discs = _discs_at(state, square)
        for i, seat in enumerate(discs):
            cx = x + CELL // 2 + (i * 2 - (len(discs) - 1)) * 12
            canvas.circle(cx, y + CELL - 14, 10, fill=COLOURS[SEAT_COLOURS[seat]], width=2)
            if state.devils[seat]:
                canvas.text(cx, y + CELL - 14, "D", size=11, fill=COLOURS["white"], anchor="mm")
    board = canvas.array()
    panel = text_image(ansi(state, config).split("\n\n", 1)[1], size=13)
    height = max(board.shape[0], panel.shape[0])
    image = np.full((height, board.shape[1] + panel.shape[1], 3), COLOURS["background"], np.uint8)
    image[: board.shape[0], : board.shape[1]] = board
    image[: panel.shape[0], board.shape[1]:] = panel
    return image


def _draw_square(canvas, state, square, x, y):
    card = int(state.board[square])
    if square == DEVIL_SPACE:
        canvas.rect(x, y, CELL, CELL, fill=COLOURS["black"])
        canvas.text(x + CELL // 2, y + CELL // 2 - 8, f"devils {int(state.devils_home)}", size=12,
                    fill=COLOURS["red"], anchor="mm")
        return
    if card < 0:
        canvas.rect(x, y, CELL, CELL, fill=COLOURS["background"], outline=COLOURS["muted"])
        return
    if not state.card_up[card]:
        canvas.rect(x + 2, y + 2, CELL - 4, CELL - 4, fill=COLOURS["brown"])
        return
    canvas.rect(x + 2, y + 2, CELL - 4, CELL - 4, fill=COLOURS["white"])
    kind = CARD_KIND[card]
    if kind == PERSON:
        canvas.text(x + CELL // 2, y + CELL // 2 - 8, LETTERS[CARD_LETTER[card]], size=24,
                    fill=COLOURS[SEAT_COLOURS[CARD_COLOUR[card]]], anchor="mm")
    else:
        label, colour = ("DEVIL", "red") if kind == DEVIL_CARD else ("TOWER", "grey")
        canvas.rect(x + 2, y + 2, CELL - 4, CELL - 4, fill=COLOURS[colour])
        canvas.text(x + CELL // 2, y + CELL // 2 - 8, label, size=12, fill=COLOURS["black"], anchor="mm")
