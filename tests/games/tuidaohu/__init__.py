"""`tuidaohu` (推倒胡): a game of the test suite only (issue 19), written as a new game's package would be.

`declarations.toml` holds its facts as data (section §T: its own reading, there is no seed); `scoring` holds one
function per rule, `ruleset` ties them into the answer and the card's facts, `shanten` is its distance to ready,
`deal` its hands for learners, `table` its rules at a table. `examples.toml` is what the generic tests expect of
it. Registered by tests/conftest.py with `register(RULESET)`; nothing outside this folder names it.
"""

from .ruleset import RULESET

__all__ = ["RULESET"]
