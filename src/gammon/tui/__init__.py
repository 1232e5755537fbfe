"""Terminal front ends (needs the ``bot`` extra: bgsage and rich)."""
