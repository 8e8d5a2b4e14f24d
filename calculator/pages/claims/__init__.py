"""The page of who takes a discard several players claim (issue 29)."""
