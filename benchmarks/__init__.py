"""Measurements of the engine, outside the product: the guard (answers byte for byte), the speed figure and the
memory test. Nothing in `calculator/` imports this package, and the offline pack does not carry it."""
