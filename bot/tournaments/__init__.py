"""Tournaments: arena, Swiss and round-robin — the pure rules (pairing, standings, arena points) apart
from what runs them."""
