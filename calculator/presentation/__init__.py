"""What the pages show, as plain values: the result card, the hand's fields, texts."""
