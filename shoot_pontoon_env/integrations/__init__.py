"""Glue for the tools of the field that need more than the Gymnasium API (optional dependencies,
imported only by the module that uses them): ``zoo`` for rl-baselines3-zoo."""
