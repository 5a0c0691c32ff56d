"""``python -m musicgames.lessons build``: write the lesson notebooks from the course."""

import sys

from musicgames.lessons.build import main

if __name__ == "__main__":
    sys.exit(main())
