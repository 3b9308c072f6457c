"""Voll auf die 18 (``voll_auf_die_18_v0``): see :mod:`envs.voll_auf_die_18.env`."""

from envs.voll_auf_die_18.env import GAME, env, parallel_env, raw_env

__all__ = ["GAME", "env", "parallel_env", "raw_env"]
