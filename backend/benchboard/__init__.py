"""Benchboard results service."""
