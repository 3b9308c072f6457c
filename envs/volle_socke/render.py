"""Pictures of a Volle Socke table: ``ansi`` text and an ``rgb`` image (the spectator's view)."""

from envs.core.render import COLOURS, Canvas

from . import engine as E
from .data import CATEGORY, NAMES, NUM_KINDS, SHORT, SPARE_0

_STATUS = ("building", "in the contest", "out of this round")
_CATEGORY_COLOUR = {"joy": COLOURS["green"], "misery": COLOURS["red"], "spare": COLOURS["purple"],
                    "engine": COLOURS["orange"], "front": COLOURS["blue"], "rear": COLOURS["brown"]}


def _cards(counts):
    """Kinds as a list, each repeated by its count."""
    return [kind for kind in range(NUM_KINDS) for _ in range(int(counts[kind]))]


def _bike_cards(state, seat):
    """(kind, label) of each card on ``seat``'s bike; spare parts carry their role."""
    out = []
    for kind in _cards(state["bike"][seat]):
        label = SHORT[kind]
        if E.FIXED_ROLE[kind] < 0:
            s = kind - SPARE_0
            label += "=" + ("front", "rear", "engine")[int(state["spare_role"][s])]
            if int(state["phase"]) == E.PH_TURN and seat == int(state["turn_seat"]) and int(state["moved"]) >> s & 1:
                label += " (moved)"
        out.append((kind, label))
    return out


def _summary(state):
    phase = int(state["phase"])
    line = f"Volle Socke: round {min(int(state['round_index']) + 1, int(state['num_rounds']))}/" \
           f"{int(state['num_rounds'])}, {E.PHASE_NAMES[phase]}"
    current = int(state["current_player"])
    if current >= 0:
        line += f", to act: player_{current}"
        if int(state["turn_seat"]) != current and phase >= E.PH_TURN:
            line += f" (turn of player_{int(state['turn_seat'])})"
    return line


def _misery_line(state):
    misery, target, slot = int(state["pending_misery"]), int(state["pending_target"]), int(state["pending_slot"])
    line = f"in play: {NAMES[misery]} by player_{int(state['turn_seat'])} on player_{target}"
    if slot >= 0:
        return line + f" at {NAMES[slot]}"
    if int(state["phase"]) == E.PH_MISERY_SLOT and int(state["current_player"]) == target:
        return line + f" (accepted: player_{target} picks the card it hands over)"
    return line


def _seat_value(state, seat):
    return int(E.bike_value(state, seat))


def ansi(state, config, viewer=None):
    n = int(state["num_players"])
    lines = [_summary(state)]
    top = int(state["discard_size"]) - 1
    face_up = E.discard_top_face_up(state)
    lines.append(f"draw pile {int(state['deck_size'])} cards; discard pile {top + 1} cards, top: "
                 f"{NAMES[int(state['discard'][top])] if face_up else 'face down' if top >= 0 else '-'}")
    knocker = int(state["knocker"])
    if knocker >= 0:
        lines.append(f"player_{knocker} knocked")
    if int(state["pending_misery"]) >= 0:
        lines.append(_misery_line(state))
    if int(state["pending_card"]) >= 0:
        lines.append(f"in transit: {NAMES[int(state['pending_card'])]}")
    played = min(int(state["round_index"]), E.MAX_ROUNDS)
    for seat in range(n):
        scores = " ".join(str(int(v)) for v in state["round_scores"][seat][:played])
        lines.append(f"player_{seat} [{_STATUS[int(state['status'][seat])]}] total {int(state['totals'][seat])}"
                     + (f" (rounds: {scores})" if played else ""))
        bike = _bike_cards(state, seat)
        if bike:
            flat = " FLAT TYRE" if state["flat_tyre"][seat] else ""
            lines.append(f"  bike: {' '.join(label for _, label in bike)} = {_seat_value(state, seat)} HP{flat}")
        hand = state["hand"][seat]
        if viewer is None or viewer == seat:
            lines.append(f"  hand: {' '.join(SHORT[k] for k in _cards(hand)) or '-'}")
        else:
            known = " ".join(SHORT[k] for k in _cards(state["known"][seat]))
            lines.append(f"  hand: {int(hand.sum())} cards" + (f", known: {known}" if known else ""))
    return "\n".join(lines)


_CARD_W, _CARD_H, _GAP = 38, 26, 4


def _draw_card(canvas, x, y, kind, label=None):
    canvas.rect(x, y, _CARD_W, _CARD_H, fill=COLOURS["white"], outline=_CATEGORY_COLOUR[CATEGORY[kind]], width=2)
    canvas.text(x + _CARD_W / 2, y + _CARD_H / 2, label or SHORT[kind], size=9, anchor="mm")


def rgb(state, config):
    n = int(state["num_players"])
    row_h = 2 * _CARD_H + 34
    width = 20 * (_CARD_W + _GAP) + 40
    canvas = Canvas(width, 60 + n * row_h)
    canvas.text(10, 8, _summary(state), size=14)
    top = int(state["discard_size"]) - 1
    canvas.text(10, 30, f"draw pile: {int(state['deck_size'])}   discard: {top + 1}", size=12)
    if E.discard_top_face_up(state):
        _draw_card(canvas, 260, 24, int(state["discard"][top]))
    current = int(state["current_player"])
    for seat in range(n):
        y = 60 + seat * row_h
        colour = COLOURS["red"] if seat == current else COLOURS["ink"]
        canvas.rect(4, y - 2, width - 8, row_h - 4, outline=colour, width=2 if seat == current else 1)
        canvas.text(10, y + 2, f"player_{seat}  {_STATUS[int(state['status'][seat])]}  "
                               f"bike {_seat_value(state, seat)} HP  total {int(state['totals'][seat])}"
                               + ("  flat tyre" if state["flat_tyre"][seat] else ""), size=11, fill=colour)
        for i, (kind, label) in enumerate(_bike_cards(state, seat)):
            _draw_card(canvas, 10 + i * (_CARD_W + _GAP), y + 18, kind, label.split("=")[0])
        for i, kind in enumerate(_cards(state["hand"][seat])):
            _draw_card(canvas, 10 + i * (_CARD_W + _GAP), y + 20 + _CARD_H, kind)
    return canvas.array()

