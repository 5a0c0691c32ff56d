"""The games as a static site: every student's browser runs Python itself (JupyterLite).

``python -m musicgames.lite build --out site/`` (``make lite``) writes a folder of plain
files that any web server can serve: JupyterLite's pages, Pyodide (Python compiled to
WebAssembly) and the wheels of musicgames and what it needs, all taken from the package
registries (npm and PyPI) at build time and served from the site itself at run time — no
other host is asked for anything. A start page asks the student's name once, the language
and the note names, and opens each game, the note drill, the chord quiz and each lesson of
the course with one click, no code shown.

What each module does:

* :mod:`~musicgames.lite.packages` — the wheels the browser gets, pinned, and those left out;
* :mod:`~musicgames.lite.download` — fetching them (npm, PyPI) into a build cache;
* :mod:`~musicgames.lite.wheels` — reading wheels, making musicgames' own and slimmer copies;
* :mod:`~musicgames.lite.lock` — Pyodide's lock file written for the site's own copies;
* :mod:`~musicgames.lite.drawings` — the staves and word widths, made at build time;
* :mod:`~musicgames.lite.course` — the lessons, made ready at build time;
* :mod:`~musicgames.lite.pages` — the start page and the pages that open an app or a lesson;
* :mod:`~musicgames.lite.site` — the whole build;
* :mod:`~musicgames.lite.launch` — what runs in the browser to open an app or a lesson;
* :mod:`~musicgames.lite.keeping` — the students' answers kept in the browser's storage.

Only :mod:`~musicgames.lite.launch` and :mod:`~musicgames.lite.keeping` are used in the
browser; the rest is the build, which needs ``jupyterlite-core`` and
``jupyterlite-pyodide-kernel`` (``pip install musicgames[lite]``), ``npm`` and ``pip``.
"""
