"""Bounds (being written)."""
