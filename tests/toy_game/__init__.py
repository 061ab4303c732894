"""A toy game in one folder (``game.py``, ``RULES.md``) and its test on every platform."""
