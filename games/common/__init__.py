"""What several games share: the engine protocol, options, words, placement."""
