"""Backends softrnic and rnic (placeholder until the RNIC transport lands)."""
