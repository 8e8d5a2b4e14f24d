"""The site's plumbing: middleware, error pages, logs, limits, the strict JSON decoder."""
