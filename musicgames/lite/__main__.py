"""``python -m musicgames.lite build --out site/``: build the static site (see
:mod:`musicgames.lite`); ``python -m musicgames.lite serve site/``: serve it from this
computer."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path

__all__ = ["main"]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m musicgames.lite",
        description="Build the games as a static site: copy the folder to any web server.")
    commands = parser.add_subparsers(dest="command", required=True)
    build = commands.add_parser("build", help="build the site")
    build.add_argument("--out", type=Path, default=Path("site"),
                       help="the folder to write the site into (emptied first; default: site)")
    build.add_argument("--cache", type=Path, default=Path("build") / "lite",
                       help="where downloads and build steps are kept between builds "
                            "(default: build/lite)")
    serve = commands.add_parser("serve", help="serve a built site from this computer")
    serve.add_argument("site", type=Path, nargs="?", default=Path("site"))
    serve.add_argument("--host", default="127.0.0.1",
                       help="the address to listen on (0.0.0.0: every computer of the network)")
    serve.add_argument("--port", type=int, default=8000)
    options = parser.parse_args(argv)
    if options.command == "serve":
        return _serve(options.site, options.host, options.port)

    from musicgames.lite.bytecode import BytecodeError
    from musicgames.lite.download import DownloadError
    from musicgames.lite.site import BuildError
    from musicgames.lite.site import build as build_site

    started = time.monotonic()
    try:
        built = build_site(options.out, options.cache)
    except (BuildError, BytecodeError, DownloadError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    print(f"Built {built.site}: {built.size / 1e6:.1f} MB, {len(built.packages)} Python "
          f"packages, in {time.monotonic() - started:.0f} s. Serve the folder with any web "
          f"server, e.g. python -m http.server -d {options.out}")
    return 0


def _serve(site: Path, host: str, port: int) -> int:
    from musicgames.lite.serve import make_server

    if not (site / "index.html").is_file():
        print(f"error: {site} is not a built site (build it with "
              "python -m musicgames.lite build)", file=sys.stderr)
        return 1
    server = make_server(site, host, port)
    print(f"Serving {site} at http://{host}:{server.server_address[1]}/ (Ctrl+C stops)")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
