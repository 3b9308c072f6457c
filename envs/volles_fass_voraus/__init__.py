"""Volles Fass voraus: engine (rules), env (PettingZoo adapter), render, data (the printed material)."""
