"""The exact solver: the punter's optimal play of one hand, its expected return, the Shoot bets.

``solve(rules)`` returns a :class:`Solution`; :class:`OptimalPunter` plays it at an engine table
(the only implementation of optimal play); ``validate.estimate`` checks it against the engine.
``python -m shoot_pontoon_env.solver --rules PRESET`` prints the expected return and the tables.
"""

from .player import OptimalPunter
from .solution import Solution
from .solve import solve

__all__ = ["OptimalPunter", "Solution", "solve"]
