"""Named views of one flat observation vector (after OpenSpiel's observer).

A game declares its observation once as a :class:`Layout`: an ordered list of named blocks with
shapes and bounds. The engine writes the flat float32 vector in numba using the integer offsets
(``L.offset("role")``, read at import into module constants); people and agents read it back
through :meth:`Layout.views`, which returns reshaped views, not copies::

    LAYOUT = Layout(
        ("own_role", 3),                  # one-hot
        ("policies", (2, 6)),             # liberal / fascist track
        ("tracker", 1, 0, 3),             # bounds low=0, high=3
    )
    LAYOUT.views(obs)["policies"]         # a (2, 6) view of obs
"""

import numpy as np
from gymnasium import spaces


class Layout:
    """An ordered set of named blocks ``(name, shape[, low, high[, doc]])`` in one flat vector."""

    def __init__(self, *blocks):
        self.names = []
        self._blocks = {}
        offset = 0
        lows, highs = [], []
        for block in blocks:
            name, shape = block[0], block[1]
            low = block[2] if len(block) > 2 else 0.0
            high = block[3] if len(block) > 3 else 1.0
            doc = block[4] if len(block) > 4 else ""
            shape = (shape,) if np.isscalar(shape) else tuple(shape)
            size = int(np.prod(shape))
            if name in self._blocks:
                raise ValueError(f"duplicate observation block {name!r}")
            if size <= 0:
                raise ValueError(f"observation block {name!r} has no entries")
            self.names.append(name)
            self._blocks[name] = (offset, shape, size, low, high, doc)
            lows.append(np.full(size, low, np.float32))
            highs.append(np.full(size, high, np.float32))
            offset += size
        self.size = offset
        self.low = np.concatenate(lows)
        self.high = np.concatenate(highs)

    def offset(self, name):
        """Where block ``name`` starts in the flat vector."""
        return self._blocks[name][0]

    def shape(self, name):
        return self._blocks[name][1]

    def rows(self, name, axis=0):
        """Flat offsets of block ``name`` as one row per index of its axis ``axis``: an int64
        ``(shape[axis], size // shape[axis])`` array (e.g. each square's features, for a policy
        that scores every square with one shared function)."""
        offset, shape, size = self._blocks[name][:3]
        if not -len(shape) <= axis < len(shape):
            raise ValueError(f"block {name!r} of shape {shape} has no axis {axis}")
        flat = np.arange(offset, offset + size, dtype=np.int64).reshape(shape)
        return np.moveaxis(flat, axis, 0).reshape(shape[axis], -1)

    def locate(self, index):
        """``(block name, index within the block)`` of entry ``index`` of the flat vector."""
        for name, (offset, shape, size, _, _, _) in self._blocks.items():
            if offset <= index < offset + size:
                return name, tuple(int(i) for i in np.unravel_index(index - offset, shape))
        raise IndexError(f"entry {index} is outside the observation (size {self.size})")

    def views(self, vector):
        """``{name: view}`` over a flat observation (or a batch: the last axis is the vector)."""
        vector = np.asarray(vector)
        if vector.shape[-1] != self.size:
            raise ValueError(f"observation has {vector.shape[-1]} entries, layout has {self.size}")
        lead = vector.shape[:-1]
        return {
            name: vector[..., offset : offset + size].reshape(lead + shape)
            for name, (offset, shape, size, _, _, _) in self._blocks.items()
        }

    def space(self):
        """The gymnasium Box of this layout's vectors."""
        return spaces.Box(self.low, self.high, (self.size,), np.float32)

    def table(self):
        """A Markdown table of the blocks, for module docstrings and docs/rules pages."""
        rows = ["| block | offset | shape | range | meaning |", "|---|---|---|---|---|"]
        for name, (offset, shape, _, low, high, doc) in self._blocks.items():
            rows.append(f"| `{name}` | {offset} | {shape} | {low:g}..{high:g} | {doc} |")
        return "\n".join(rows)
