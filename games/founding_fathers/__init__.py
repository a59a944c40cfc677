"""Founding Fathers (3–5 players) as a referee game plugin."""
from .play import random_orders
from .rules import RULES, FoundingFathers

__all__ = ["RULES", "FoundingFathers", "random_orders"]
