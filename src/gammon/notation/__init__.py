"""Text formats: move notation, gnubg Position ID, XGID.

Standard library only.  The main entry points are methods of
:class:`gammon.Position`; the functions here are the codecs behind them.
"""
