"""The calculator page: one hand in, its result card out."""
