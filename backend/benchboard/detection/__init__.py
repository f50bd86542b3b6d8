"""The change-detection method: pure functions over a series' runs (no database, no web)."""
