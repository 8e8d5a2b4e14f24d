"""A table in the database: the writes (one lock per table) and the reads of its entries."""
