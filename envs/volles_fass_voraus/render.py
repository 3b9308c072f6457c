"""Drawing a Volles Fass voraus table: ``ansi`` (text) and ``rgb`` (a picture of route, ships and decks)."""

from envs.core.render import COLOURS, Canvas

from . import data, engine

SHIP_COLOURS = ("blue", "green", "grey", "red")  # ship 0..3 (seat order); ships without a player too
BARREL_COLOURS = ("purple", "orange", "white")


def _ship_label(state, ship):
    return f"P{ship}" if ship < int(state.num_players) else f"n{ship}"


def _deck_rows(deck):
    """The deck as text, bow at the top, the loading dock at the bottom; '.' is a free space."""
    lines = []
    for row in reversed(range(len(data.ROW_SIZES))):
        first = sum(data.ROW_SIZES[:row])
        cells = []
        for i in range(first, first + data.ROW_SIZES[row]):
            cells.append("." if deck[i] == engine.EMPTY else data.COLOUR_LETTERS[deck[i] - 1])
        indent = "" if data.ROW_SIZES[row] == 4 else " "
        lines.append(indent + " ".join(cells))
    lines.append("=======")
    return lines


CELL_WIDTH = 34  # the longest berth, with its ship: "P1 storm: 2 overboard, storm chaos"


def _route_lines(state, viewer):
    """One line per harbour of the route, west to east in aligned columns; '>' marks the harbour
    the ships are heading for."""
    lines = []
    heading = int(state.leg) + 1 if state.phase != engine.PH_START_BERTH and not state.terminal else -1
    for harbour in range(engine.dest_harbour(state) + 1):
        visible = state.revealed[harbour] or viewer is None
        tile = int(state.harbour_tile[harbour])
        label = data.tile_name(tile) if visible else "??"
        cells = []
        for pos in range(data.NUM_BERTHS):
            ship = int(state.berth_ship[harbour, pos])
            who = _ship_label(state, ship) if ship >= 0 else "  "
            text = data.berth_text(tile, pos) if visible else "face down"
            cells.append(f"{who} {text}".ljust(CELL_WIDTH))
        mark = ">" if harbour == heading else " "
        lines.append(f"{mark}{harbour:2d} {label:>11}: " + " | ".join(cells).rstrip())
    return lines


def ansi(state, config, viewer=None):
    n = int(state.num_players)
    lines = []
    if state.terminal:
        lines.append("Game over.")
    else:
        seat = int(state.current_player)
        lines.append(f"Player {seat} to act: {engine.PHASE_NAMES[int(state.phase)]}")
    lines.extend(_route_lines(state, viewer))
    for seat in range(n):
        deck = _deck_rows(state.deck[seat])
        sailors = [data.SAILOR_NAMES[c] for c in range(data.NUM_SAILORS) if state.sailor_owner[c] == seat]
        maps = [c for c in range(data.NUM_MAPS) if state.map_owner[c] == seat]
        if viewer is None or viewer == seat:
            map_text = ", ".join(data.map_name(c) for c in maps) or "none"
        else:
            map_text = f"{len(maps)} face down"
        lines.append(f"Player {seat}: {int(state.doubloons[seat])} doubloons"
                     + (f" (treasure {int(state.treasure[seat])})" if state.terminal else ""))
        lines.append("  sailors: " + (", ".join(sailors) or "none"))
        lines.append("  maps: " + map_text)
        lines.extend("    " + row for row in deck)
    lines.append("Supply: " + ", ".join(f"{int(state.supply[c])} {data.COLOURS[c]}" for c in range(3))
                 + f"; sailor pile {data.NUM_SAILORS - int(state.sailors_drawn)},"
                 + f" treasure-map pile {data.NUM_MAPS - int(state.maps_drawn)}")
    return "\n".join(lines)


# ---- the picture ----------------------------------------------------------------------------

HARBOURS_PER_ROW = 7
BERTH_W, BERTH_H = 176, 17
HARBOUR_W, HARBOUR_H = BERTH_W + 8, 16 + data.NUM_BERTHS * BERTH_H + 10
#: Berth backgrounds by what the berth does; a berth with no main action is a hazard (pirates,
#: seasickness, storm) or a start berth (white).
HAZARD_FILL = (240, 200, 195)
KIND_FILL = {data.KIND_NONE: COLOURS["white"], data.KIND_LOAD: (215, 235, 210), data.KIND_UNLOAD: (205, 222, 242),
             data.KIND_SAILOR: (245, 232, 190), data.KIND_MAPS: (228, 215, 200)}
SHORT_WORDS = (("pirates rob a barrel", "rob 1 barrel"), ("pirates rob", "rob"), ("storm chaos", "chaos"),
               (" overboard", " overbd"), ("(free)", "(0)"), ("[fish]", "~fish"), ("[sail]", "~sail"))


def _short_berth_text(tile, pos):
    text = data.berth_text(tile, pos)
    for long, short in SHORT_WORDS:
        text = text.replace(long, short)
    return text


def _draw_harbour(canvas, state, harbour, x, y):
    tile = int(state.harbour_tile[harbour])
    shown = bool(state.revealed[harbour])
    title = f"{harbour} {data.tile_name(tile)}" if shown else f"{harbour} (face down)"
    canvas.text(x, y, title, size=11)
    for pos in range(data.NUM_BERTHS):
        by = y + 16 + pos * BERTH_H
        fill = COLOURS["grey"]
        if shown:
            hazard = data.BERTH_KIND[tile, pos] == data.KIND_NONE and not data.BERTH_START[tile, pos]
            fill = HAZARD_FILL if hazard else KIND_FILL[int(data.BERTH_KIND[tile, pos])]
        canvas.rect(x, by, BERTH_W, BERTH_H - 2, fill=fill)
        if shown:
            canvas.text(x + 3, by + 2, _short_berth_text(tile, pos), size=10)
        ship = int(state.berth_ship[harbour, pos])
        if ship >= 0:
            canvas.circle(x + BERTH_W - 9, by + BERTH_H // 2 - 1, 6, fill=COLOURS[SHIP_COLOURS[ship]])


def _draw_deck(canvas, state, seat, x0, top):
    canvas.text(x0, top, f"P{seat}: {int(state.doubloons[seat])} doubloons", size=12,
                fill=COLOURS[SHIP_COLOURS[seat]])
    sailors = sum(1 for c in range(data.NUM_SAILORS) if state.sailor_owner[c] == seat)
    maps = sum(1 for c in range(data.NUM_MAPS) if state.map_owner[c] == seat)
    canvas.text(x0, top + 16, f"{sailors} sailors, {maps} maps", size=11)
    scale = 36
    base_y = top + 170
    canvas.rect(x0, base_y + 8, 4 * scale, 8, fill=COLOURS["brown"])  # the loading dock
    for i in range(data.NUM_SPACES):
        cx = x0 + 18 + data.SPACE_X[i] * scale
        cy = base_y - 10 - data.SPACE_Y[i] * scale * 1.4
        r = data.BARREL_DIAMETER * scale / 2
        barrel = int(state.deck[seat, i])
        if barrel == engine.EMPTY:
            canvas.circle(cx, cy, r, outline=COLOURS["muted"])
        else:
            canvas.circle(cx, cy, r, fill=COLOURS[BARREL_COLOURS[barrel - 1]])


def rgb(state, config):
    """The whole route, harbour by harbour in rows of seven (west to east, then the next row), with
    every berth's action and the ships; below it each player's deck."""
    n = int(state.num_players)
    margin, deck_w = 10, 190
    harbours = engine.dest_harbour(state) + 1
    rows = -(-harbours // HARBOURS_PER_ROW)
    width = max(HARBOURS_PER_ROW * HARBOUR_W, n * deck_w) + 2 * margin
    deck_top = 34 + rows * HARBOUR_H + 10
    canvas = Canvas(width, deck_top + 200)
    canvas.text(margin, 8, "Volles Fass voraus" + ("  (game over)" if state.terminal else
                f"  player {int(state.current_player)}: {engine.PHASE_NAMES[int(state.phase)]}")
                + f"   supply {' '.join(str(int(c)) for c in state.supply)} (P O C)"
                + f"   sailor pile {data.NUM_SAILORS - int(state.sailors_drawn)}"
                + f"   map pile {data.NUM_MAPS - int(state.maps_drawn)}", size=14)
    for harbour in range(harbours):
        row, col = divmod(harbour, HARBOURS_PER_ROW)
        _draw_harbour(canvas, state, harbour, margin + col * HARBOUR_W, 34 + row * HARBOUR_H)
    for seat in range(n):
        _draw_deck(canvas, state, seat, margin + seat * deck_w, deck_top)
    return canvas.array()
