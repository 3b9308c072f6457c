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


def ansi(state, config, viewer=None):
    n = int(state.num_players)
    lines = []
    if state.terminal:
        lines.append("Game over.")
    else:
        seat = int(state.current_player)
        lines.append(f"Player {seat} to act: {engine.PHASE_NAMES[int(state.phase)]}")
    for harbour in range(data.NUM_HARBOURS):
        visible = state.revealed[harbour] or viewer is None
        tile = int(state.harbour_tile[harbour])
        label = data.tile_name(tile) if visible else "??"
        cells = []
        for pos in range(data.NUM_BERTHS):
            ship = int(state.berth_ship[harbour, pos])
            who = _ship_label(state, ship) if ship >= 0 else "  "
            text = data.berth_text(tile, pos) if visible else "face down"
            cells.append(f"{who} {text}")
        lines.append(f"{harbour:2d} {label:>11}: " + " | ".join(cells))
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
    lines.append("Supply: " + ", ".join(f"{int(state.supply[c])} {data.COLOURS[c]}" for c in range(3)))
    return "\n".join(lines)


def rgb(state, config):
    n = int(state.num_players)
    cell_w, cell_h, margin = 92, 22, 10
    route_w = data.NUM_HARBOURS * cell_w + 2 * margin
    deck_w = 170
    width = max(route_w, n * deck_w + 2 * margin)
    height = 74 + data.NUM_BERTHS * cell_h + 230
    canvas = Canvas(width, height)
    canvas.text(margin, 8, "Volles Fass voraus" + ("  (game over)" if state.terminal else
                f"  player {int(state.current_player)}: {engine.PHASE_NAMES[int(state.phase)]}"), size=14)
    top = 48
    for harbour in range(data.NUM_HARBOURS):
        x = margin + harbour * cell_w
        tile = int(state.harbour_tile[harbour])
        canvas.text(x + 2, top - 4, data.tile_name(tile) if state.revealed[harbour] else "?", size=11,
                    anchor="lb")
        for pos in range(data.NUM_BERTHS):
            y = top + pos * cell_h
            kind = int(data.BERTH_KIND[tile, pos]) if state.revealed[harbour] else -1
            fill = COLOURS["white"] if kind >= 0 else COLOURS["grey"]
            canvas.rect(x, y, cell_w - 4, cell_h - 3, fill=fill)
            if kind >= 0:
                canvas.text(x + 3, y + 4, data.berth_text(tile, pos)[:15], size=9)
            ship = int(state.berth_ship[harbour, pos])
            if ship >= 0:
                canvas.circle(x + cell_w - 12, y + cell_h // 2 - 1, 6, fill=COLOURS[SHIP_COLOURS[ship]])
    deck_top = top + data.NUM_BERTHS * cell_h + 20
    for seat in range(n):
        x0 = margin + seat * deck_w
        canvas.text(x0, deck_top, f"P{seat}: {int(state.doubloons[seat])} doubloons", size=12,
                    fill=COLOURS[SHIP_COLOURS[seat]])
        sailors = sum(1 for c in range(data.NUM_SAILORS) if state.sailor_owner[c] == seat)
        maps = sum(1 for c in range(data.NUM_MAPS) if state.map_owner[c] == seat)
        canvas.text(x0, deck_top + 16, f"{sailors} sailors, {maps} maps", size=11)
        scale = 36
        base_y = deck_top + 170
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
    return canvas.array()

