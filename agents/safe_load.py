"""Loading trained models without running anything the file holds: the loader is the installed
package's ``shoot_pontoon_env.models.safe_load`` (``python -m shoot_pontoon_env.play`` seats trained
opponents with it, outside a checkout too), whose docstring says what is read and what is refused.
Its names are importable from here as before.
"""

from __future__ import annotations

from shoot_pontoon_env.models.safe_load import *  # noqa: F401,F403
