"""The heads-up game: exact best responses of either seat, exploitability, and the reduced game's equilibrium (CFR+, checked by an LP)."""
