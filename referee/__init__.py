"""referee: a play-by-email referee for council and board games."""
__version__ = "0.1.0"
