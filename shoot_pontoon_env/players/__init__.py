"""Table players: the rule-based strategies (``strategies``) and the loop that seats them at a Table (``session``)."""
