"""Teufel, Teufel! (Salagames 1992): find your six letters in the underworld and leave it."""
