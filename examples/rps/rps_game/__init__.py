"""Rock, Paper, Scissors as a referee game: the example of docs/WRITING-A-GAME.md."""
from .rules import RULES, RockPaperScissors, random_orders

__all__ = ["RULES", "RockPaperScissors", "random_orders"]
