"""The test suite's own game (issue 19): registered beside the games a deployment serves before any test is
collected, so that every suite that loops over the registry runs over it too. Nothing outside its package names it
but the one line below; no deployment registers it (the engine reads no settings)."""

from calculator.engine.rulesets import register
from tests.games.tuidaohu import RULESET as TEST_GAME

register(TEST_GAME)
