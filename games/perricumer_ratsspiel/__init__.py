"""Das Perricumer Ratsspiel: a simultaneous council game run by deadline."""
from .rules import RULES, RatsspielRules
from .scripted import random_orders

__all__ = ["RULES", "RatsspielRules", "random_orders"]
