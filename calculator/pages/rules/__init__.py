"""The rules page: every pattern, house rule and reading of both games."""
