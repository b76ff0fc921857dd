"""Tournaments of agents with confidence intervals, reports and plots (run from a checkout:
``python -m evaluate --env ShootPontoon-Playtech-v0 --agents random tips optimal``)."""
