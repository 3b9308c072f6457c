"""Teufel, Teufel! as a PettingZoo AEC environment; see :mod:`envs.teufel_teufel.env`."""

from envs.teufel_teufel.env import GAME, env, parallel_env, raw_env

__all__ = ["GAME", "env", "parallel_env", "raw_env"]
