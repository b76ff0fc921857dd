"""The seat layer: one seat's episode, configured once and played by either engine.

``config.py`` holds the checked configuration of a seat's episode (:class:`SeatConfig`: the rules, the
seat, the table players, the action table, the observation layout, the episode's settings); an
:class:`~shoot_pontoon_env.seat.episode.Episode` plays it on either engine: ``table_episode.py`` on the
reference ``Table``, ``kernel_episode.py`` on the batched engine at one table. The Gymnasium front
doors (``envs/``) build a config and pick the Table or the batched engine per episode; the
differential test holds the two episodes equal through this interface.
"""
