"""Shared hypothesis settings for the lexicon tests (without touching the global profile)."""

from __future__ import annotations

import os

from hypothesis import settings

#: 40 examples per property normally, 400 under ``MOJI_FUZZ=long`` (make fuzz).
FUZZ = settings(max_examples=400 if os.environ.get("MOJI_FUZZ") == "long" else 40, deadline=None)
