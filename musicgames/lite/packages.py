"""What the browser gets: Pyodide's core and the wheels the kernel and musicgames need.

Every version is pinned, so a build made today and one made next year are the same site.
Where Pyodide itself ships a package (its lock file names it), the site takes the version
Pyodide was tested with; the rest are the versions the desktop install is tested with.

Some of musicgames' desktop dependencies never reach the browser (:data:`LEFT_OUT`): they
are compiled (no WebAssembly wheel on PyPI) or only draw and print on the desktop. A
student's path imports none of them; the build checks that every other requirement of
every wheel it ships is shipped too (:func:`musicgames.lite.lock.depends`).

>>> PYODIDE_NPM
'pyodide@314.0.6'
>>> sorted(set(BROWSER_WHEELS) & set(LEFT_OUT))
[]
>>> all(name == normalize(name) for name in [*BROWSER_WHEELS, *LEFT_OUT, *SLIMMED])
True
"""

from __future__ import annotations

import re

__all__ = [
    "BROWSER_WHEELS",
    "FRONT_END_WHEELS",
    "KERNEL_EXTENSION",
    "LEFT_OUT",
    "PYODIDE_NPM",
    "PYODIDE_VERSION",
    "SLIMMED",
    "normalize",
    "pip_requirements",
]

#: The Pyodide release jupyterlite-pyodide-kernel 0.8.6 is built for (its
#: ``constants.PYODIDE_VERSION``); npm's ``pyodide`` package holds its core.
PYODIDE_VERSION = "314.0.6"
PYODIDE_NPM = f"pyodide@{PYODIDE_VERSION}"

#: The JupyterLite kernel: its wheel on PyPI holds the front-end extension and the wheels
#: the kernel installs in the browser (piplite, pyodide-kernel, the ipykernel and
#: widgetsnbextension stand-ins).
KERNEL_EXTENSION = ("jupyterlite-pyodide-kernel", "0.8.6")

#: The wheels whose front-end extensions go into the site: each matches the Python package
#: of the same version that the browser runs (ipywidgets 8.1.9 talks to jupyterlab-widgets
#: 3.0.17's widget manager; anywidget's front end to anywidget).
FRONT_END_WHEELS: dict[str, str] = {
    "jupyterlab-widgets": "3.0.17",
    "anywidget": "0.11.0",
}

#: Pure-Python wheels the browser loads from the site, by normalized name: version.
BROWSER_WHEELS: dict[str, str] = {
    # the kernel's own (versions from Pyodide's lock file)
    "micropip": "0.11.1",
    "ipython": "9.12.0",
    "ipython-pygments-lexers": "1.1.1",
    "jedi": "0.19.2",
    "parso": "0.8.6",
    "traitlets": "5.14.3",
    "pygments": "2.20.0",
    "decorator": "5.2.1",
    "six": "1.17.0",
    "asttokens": "3.0.1",
    "executing": "2.2.1",
    "pure-eval": "0.2.3",
    "stack-data": "0.6.3",
    "prompt-toolkit": "3.0.52",
    "wcwidth": "0.6.0",
    "matplotlib-inline": "0.2.1",
    "typing-extensions": "4.15.0",
    "comm": "0.2.3",
    # widgets
    "ipywidgets": "8.1.9",
    "psygnal": "0.16.1",
    **FRONT_END_WHEELS,
    # musicgames and what it imports
    "music21": "10.5.1",
    "fsrs": "6.3.2",
    "platformdirs": "4.9.4",
    "babel": "2.19.0",
    "tzdata": "2025.3",  # the time zones Babel's dates look up (the browser's Python has none)
    # music21's pure requirements
    "chardet": "7.7.0",
    "joblib": "1.5.3",
    "jsonpickle": "4.1.4",
    "more-itertools": "11.0.1",
    "webcolors": "25.10.0",
    "requests": "2.33.1",
    "charset-normalizer": "3.4.7",
    "idna": "3.11",
    "urllib3": "2.6.3",
    "certifi": "2026.4.22",
}

#: Requirements of the shipped wheels that the browser does without, and why.
LEFT_OUT: dict[str, str] = {
    "numpy": "compiled; music21 imports and works without it, musicgames' student path too",
    "matplotlib": "compiled; the teacher's charts and the printed cards' font widths only",
    "verovio": "compiled; staves are engraved at build time (musicgames.lite.drawings)",
    "svgpath2mpl": "the printed cards' glyphs only (needs matplotlib)",
    "pillow": "compiled; font widths are measured at build time (musicgames.lite.drawings)",
    "jupyterlab": "the desktop's notebook server; the site is JupyterLite",
    "jsonschema": "pinned for the desktop's Jupyter servers, which check their settings with it",
    "pexpect": "IPython's terminal shell, not used by a kernel",
    "ptyprocess": "IPython's terminal shell, not used by a kernel",
}

#: Wheels the site ships slimmer than PyPI's, and what goes: what no student ever opens.
SLIMMED: dict[str, str] = {
    "music21": "the corpus of scores (music21/corpus/*/ data), the tests and the docs' data",
    "babel": "the locale data of every language but English, Spanish and French",
}


def normalize(name: str) -> str:
    """A project's name as package indexes compare it (PEP 503).

    >>> normalize("Prompt_Toolkit"), normalize("pure.eval")
    ('prompt-toolkit', 'pure-eval')
    """
    return re.sub(r"[-_.]+", "-", name).lower()


def pip_requirements() -> list[str]:
    """What ``pip download`` fetches: every pinned wheel and the kernel's extension.

    >>> pip_requirements()[0], "music21==10.5.1" in pip_requirements()
    ('jupyterlite-pyodide-kernel==0.8.6', True)
    """
    name, version = KERNEL_EXTENSION
    return [f"{name}=={version}", *(f"{n}=={v}" for n, v in BROWSER_WHEELS.items())]
