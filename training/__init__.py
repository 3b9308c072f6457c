"""Self-play training, evaluation and the demo."""
