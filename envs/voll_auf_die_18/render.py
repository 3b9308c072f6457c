"""Voll auf die 18 drawn for people: ``ansi`` (text) and ``rgb`` (a picture of the table).

``viewer`` limits the text to what one seat may know (hidden fronts show as ``??``); without it,
a hand card its holder does not know (Blind Trust, until told) is marked ``?``. The picture shows
everything except the stacks' order.
"""

from envs.core.render import COLOURS, Canvas

from . import data as D
from . import engine as E

SLOT_NAMES = ("stack top", "space 1", "space 2", "space 3", "space 4")


def _card(card, front=True):
    if card < 0:
        return "--"
    if card >= D.NUM_ARGUMENTS:
        return "RZ"
    if not front:
        return "??"
    return f"{D.COLOUR_LETTERS[D.CARD_COLOUR[card]]}{D.CARD_VALUE[card]}"


def _nazi(state, nazi):
    iq = int(D.NAZI_IQ[nazi])
    if not state["nasty"][nazi]:
        return f"IQ {iq}"
    kind = int(D.NASTY_KIND[nazi])
    extra = ""
    if kind in (D.ONE_COLOUR, D.TWO_COLOUR):
        extra = " " + "".join(D.COLOUR_LETTERS[c] for c in range(4) if D.NASTY_COLOURS[nazi] >> c & 1)
    elif kind == D.NUMBER_BAN:
        extra = " no " + "/".join(str(v) for v in range(1, 7) if D.NASTY_BANNED[nazi] >> v & 1)
    return f"IQ {iq} [{D.NAZI_KIND_NAMES[kind]}{extra}]"


def _front_known(state, viewer, holder, slot):
    if viewer is None:
        return True
    return bool(E.knows_front(state, viewer, holder, slot))


def _hand(state, viewer, seat):
    """A hand as text; in the full view a card its holder does not know is marked ``?``."""
    shown = []
    for slot, c in enumerate(state["hand"][seat]):
        text = _card(int(c), _front_known(state, viewer, seat, slot))
        if viewer is None and 0 <= c < D.NUM_ARGUMENTS and not E.knows_front(state, seat, seat, slot):
            text += "?"
        shown.append(text)
    return " ".join(shown)


def ansi(state, config, viewer=None):
    num = int(state["num_players"])
    chapter = int(state["chapter"])
    labels = [name for flag, name in D.LABEL_NAMES if int(state["labels"]) & flag]
    clock = int(state["clock"])
    lines = [
        f"Voll auf die 18 - chapter {chapter}: {D.CHAPTER_TITLES[chapter]} ({', '.join(labels) or 'no labels'})",
        f"time {clock // 60}:{clock % 60:02d} of 18:00 | convinced {int(state['convinced'])}/18 | "
        f"Nazi stack {int(state['nazi_stack_len'])} | Bib {int(state['bib_count'])}"
        + (" | emergency used" if state["emergency_used"] else ""),
    ]
    if state["terminal"]:
        lines.append(f"GAME OVER: {E.END_REASON_NAMES[int(state['end_reason'])]}")
    for slot in range(E.NUM_SLOTS):
        nazi = int(E.nazi_in_slot(state, slot))
        if nazi < 0:
            continue
        pool = []
        for seat in range(num):
            if state["contrib"][nazi, seat]:
                cards = [_card(c) for c in range(D.NUM_ARGUMENTS)
                         if state["card_loc"][c] == E.LOC_POOL and state["card_nazi"][c] == nazi
                         and state["card_seat"][c] == seat]
                dice = [str(int(state["die_value"][k])) for k in range(D.NUM_DICE)
                        if state["die_status"][k] == E.DIE_POOLED and state["die_nazi"][k] == nazi]
                pool.append(f"p{seat}: {' '.join(cards + dice)} = {int(state['contrib_value'][nazi, seat])}")
        need = int(D.NAZI_IQ[nazi]) - int(state["pool_fixed"][nazi])
        lines.append(f"  {SLOT_NAMES[slot]:>9}: {_nazi(state, nazi)}"
                     + (f"  pool {'; '.join(pool)} (needs {need})" if pool else ""))
    for seat in range(num):
        character = int(state["character"][seat])
        if character == D.KRAPOTKE:
            status = ("", "(used)", "(blocked)", "(laid)")
            held = " ".join(f"{D.COLOUR_LETTERS[k]}{int(state['die_value'][k])}{status[int(state['die_status'][k])]}"
                            for k in range(D.NUM_DICE))
        else:
            held = _hand(state, viewer, seat)
        talent = ""
        if state["labels"] & D.L_TALENTS:
            talent = f" | talent {'READY' if state['talent_ready'][seat] else 'off'} ({int(state['talent_len'][seat])})"
        offer = ""
        if state["offer_to"][seat] >= 0:
            slot = list(state["hand"][seat]).index(state["offer_card"][seat])
            front = viewer == state["offer_to"][seat] or _front_known(state, viewer, seat, slot)
            offer = f" | offers {_card(int(state['offer_card'][seat]), front)} to p{int(state['offer_to'][seat])}"
        me = " (you)" if viewer == seat else ""
        lines.append(f"p{seat}{me} {D.CHARACTER_NAMES[character]:>17}: {held}{talent}{offer}")
    bib = " ".join(_card(c) for c in range(D.NUM_ARGUMENTS) if state["card_loc"][c] == E.LOC_BIB)
    lines.append(f"Bib: {bib or '(empty)'}")
    stacks = ", ".join(str(int(state["stack_len"][s])) for s in range(int(state["num_stacks"])))
    lines.append(f"Argument stacks: {stacks}")
    return "\n".join(lines)


def rgb(state, config):
    num = int(state["num_players"])
    width, height = 760, 180 + 70 * num
    canvas = Canvas(width, height)
    clock = int(state["clock"])
    canvas.text(10, 8, f"Chapter {int(state['chapter'])}  {clock // 60}:{clock % 60:02d}/18:00  "
                f"convinced {int(state['convinced'])}/18  stack {int(state['nazi_stack_len'])}", size=16)
    if state["terminal"]:
        canvas.text(430, 8, E.END_REASON_NAMES[int(state["end_reason"])][:40], size=12, fill=COLOURS["red"])
    for slot in range(E.NUM_SLOTS):
        x, y = 10 + slot * 150, 34
        nazi = int(E.nazi_in_slot(state, slot))
        canvas.rect(x, y, 140, 90, fill=COLOURS["brown"] if nazi >= 0 and state["nasty"][nazi] else COLOURS["grey"])
        canvas.text(x + 6, y + 4, SLOT_NAMES[slot], size=11)
        if nazi >= 0:
            canvas.text(x + 6, y + 22, f"IQ {int(D.NAZI_IQ[nazi])}", size=22, fill=COLOURS["white"])
            canvas.text(x + 6, y + 52, _nazi(state, nazi)[len(f"IQ {int(D.NAZI_IQ[nazi])}"):][:22], size=10)
            if state["pool_count"][nazi]:
                canvas.text(x + 6, y + 70, f"pool {int(state['pool_fixed'][nazi])}", size=12)
    colour_of = (COLOURS["red"], COLOURS["yellow"], COLOURS["green"], COLOURS["blue"])
    for seat in range(num):
        y = 140 + seat * 70
        character = int(state["character"][seat])
        # the built-in font has no umlauts: the picture uses the ASCII names
        canvas.text(10, y + 20, f"p{seat} {D.CHARACTER_IDS[character].replace('_', '-').title()}", size=14)
        for i in range(4):
            x = 190 + i * 52
            if character == D.KRAPOTKE:
                blocked = state["die_status"][i] == E.DIE_BLOCKED
                canvas.rect(x, y, 44, 44, fill=COLOURS["muted"] if blocked else colour_of[i])
                canvas.text(x + 16, y + 12, str(int(state["die_value"][i])), size=18, fill=COLOURS["black"])
                continue
            card = int(state["hand"][seat, i])
            if card < 0:
                canvas.rect(x, y, 44, 60, outline=COLOURS["muted"])
            elif card >= D.NUM_ARGUMENTS:
                canvas.rect(x, y, 44, 60, fill=COLOURS["purple"])
                canvas.text(x + 8, y + 22, "RZ", size=14, fill=COLOURS["white"])
            else:
                canvas.rect(x, y, 44, 60, fill=colour_of[D.CARD_COLOUR[card]])
                canvas.text(x + 15, y + 18, str(int(D.CARD_VALUE[card])), size=20, fill=COLOURS["black"])
    y = 150 + 70 * num
    bib = [c for c in range(D.NUM_ARGUMENTS) if state["card_loc"][c] == E.LOC_BIB]
    canvas.text(10, y, "Bib:", size=14)
    for j, card in enumerate(bib[:26]):
        x = 50 + j * 27
        canvas.rect(x, y - 2, 24, 24, fill=colour_of[D.CARD_COLOUR[card]])
        canvas.text(x + 7, y + 2, str(int(D.CARD_VALUE[card])), size=13, fill=COLOURS["black"])
    return canvas.array()
