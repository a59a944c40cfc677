"""Checked by mypy (the repository folder games/ is the package referee_games once installed;
mypy reads the folder) (see [tool.mypy] in pyproject.toml and .ci/run), not run by pytest:
every built-in game's rules object has the shape of the contract's GameRules, so a
signature that drifts from the protocol is a type error."""
from games.founding_fathers import RULES as founding_fathers
from games.nations_dice import RULES as nations_dice
from games.perricumer_ratsspiel import RULES as perricumer_ratsspiel
from games.revolution_1848 import RULES as revolution_1848
from referee.game_api.contract import GameRules

GAMES: list[GameRules] = [founding_fathers, perricumer_ratsspiel, nations_dice, revolution_1848]
