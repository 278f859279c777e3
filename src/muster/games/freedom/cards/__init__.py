"""Freedom!'s cards: shared event primitives and the named effect of each card."""
