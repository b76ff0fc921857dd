"""Trained models in the installed package: read without running anything the file holds
(``safe_load``), acting on an env's observations (``trained.TrainedPolicy``), and seated at a table as
a player (``player.PolicyPlayer``). ``python -m shoot_pontoon_env.play`` seats trained opponents with
them; the checkout's ``agents/`` builds its trained agent on the same pieces.

Reading a model needs the ``train`` extra (pyyaml, torch, stable-baselines3, sb3-contrib); nothing is
imported here, so that ``import shoot_pontoon_env.models.player`` needs none of it.
"""
