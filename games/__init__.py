"""Pure rule engines for moji's games. No I/O, no clock, no asyncio."""
