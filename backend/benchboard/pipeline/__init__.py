"""Background work: the durable detection queue, `benchboard worker`, checks and deliveries."""
