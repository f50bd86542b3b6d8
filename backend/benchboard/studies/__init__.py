"""A study's page: a suite's settings composed with its runs, machines and findings."""
