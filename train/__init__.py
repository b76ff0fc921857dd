"""Training PPO and MaskablePPO agents on the Pontoon environments (run from a checkout:
``python -m train --config train/configs/playtech_punter.yml``). Not installed with the library."""
