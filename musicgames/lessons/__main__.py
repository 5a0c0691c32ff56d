"""``python -m musicgames.lessons build``: write the lesson notebooks from the course."""

import sys

from musicgames.lessons.build import main

sys.exit(main())
