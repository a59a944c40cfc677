"""Nations: The Dice Game (1–4 players, original and accelerated variants, solo) as a referee game plugin."""
from .play import random_orders
from .rules import RULES, NationsDice

__all__ = ["RULES", "NationsDice", "random_orders"]
