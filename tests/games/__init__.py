"""Games the test suite registers beside the ones a deployment serves (calculator/engine/rulesets/): each a package
as a new game would be written, registered only by the tests (tests/conftest.py), never in production."""
