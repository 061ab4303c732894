"""Data files of the lexicon (a package so that setuptools ships them)."""
