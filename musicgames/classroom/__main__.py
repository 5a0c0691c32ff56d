"""``python -m musicgames.classroom``: serve the games, practice and lessons to a class.

See :func:`musicgames.classroom.main` for the options.
"""

from musicgames.classroom import main

raise SystemExit(main())
