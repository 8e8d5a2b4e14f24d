"""A table's pages: its account, history, settlement, CSV and the record form."""
