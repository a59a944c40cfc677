"""Das Perricumer Ratsspiel: a simultaneous council game run by deadline."""
from .orders import random_orders
from .rules import RULES, RatsspielRules

__all__ = ["RULES", "RatsspielRules", "random_orders"]
