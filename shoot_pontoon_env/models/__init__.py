"""Policies over an env's observations and trained models in the installed package: the observation
policy base and users' callables (``player.ObservationPolicy``, ``player.CallablePolicy``), models read
without running anything the file holds (``safe_load``) and played as policies
(``trained.TrainedPlayer``), and the one resolver of a policy from a name, a model file, a callable
or a Policy (``resolve.make_policy``). ``python -m shoot_pontoon_env.play`` seats its opponents with
it; the checkout's ``agents/`` builds its agents on the same pieces.

Reading a model needs the ``train`` extra (pyyaml, torch, stable-baselines3, sb3-contrib); nothing is
imported here, so that ``import shoot_pontoon_env.models.player`` needs none of it.
"""
