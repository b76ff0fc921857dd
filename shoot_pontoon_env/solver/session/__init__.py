"""The session: a bank held deal after deal, valued exactly as a Markov chain of the Shoot (heads-up) and played at the engine."""
