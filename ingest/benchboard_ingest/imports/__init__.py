"""History import: other trackers' whole histories as batches of contract v1 runs."""
