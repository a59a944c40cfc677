"""1848 (2–4 players, extended rules of seed 003) as a referee game plugin."""
from .play import random_orders
from .rules import RULES, Revolution1848

__all__ = ["RULES", "Revolution1848", "random_orders"]
