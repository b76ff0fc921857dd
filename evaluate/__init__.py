"""The checkout's front door to the library's evaluation (``shoot_pontoon_env.evaluate``):
``python -m evaluate --env ShootPontoon-Playtech-v0 --agents random tips optimal`` runs it with the
checkout's agents as well."""
