"""The class-size benchmark's students (``benchmarks/bench_classroom.py --clients protocol``):
they speak the server's real protocol and get the kernel's answers."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import psutil
import pytest

from musicgames.progress import read_answers

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_classroom",
                                                  BENCHMARKS / "bench_classroom.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("bench_classroom", module)
    spec.loader.exec_module(module)
    return module


def test_frames_are_jupyters_own_websocket_protocol() -> None:
    from jupyter_server.services.kernels.connection.base import (
        deserialize_msg_from_ws_v1,
        serialize_msg_to_ws_v1,
    )

    client = _bench().ProtocolStudent.__module__
    to_ws, from_ws = sys.modules[client].to_ws, sys.modules[client].from_ws
    parts = [b'{"msg_type": "comm_msg"}', b"{}", b"{}", b'{"data": {"method": "custom"}}']
    assert to_ws("shell", parts) == serialize_msg_to_ws_v1(parts, "shell")
    frame = serialize_msg_to_ws_v1([*parts, b"buffer"], "iopub")
    assert from_ws(frame) == deserialize_msg_from_ws_v1(frame) == ("iopub", [*parts, b"buffer"])


def test_the_page_names_its_kernel_and_its_own_assets() -> None:
    client = sys.modules[_bench().ProtocolStudent.__module__]
    page = ('<link rel="stylesheet" href="/voila/static/a.css">'
            '<script src="https://cdn.example.org/x.js"></script>'
            '<script src="/voila/static/voila.js?v=1&amp;w=2"></script>'
            '<script id="jupyter-config-data" type="application/json">'
            '{"baseUrl": "/", "kernelId": "1a2b-3c"}</script>')
    url = "http://127.0.0.1:9/voila/render/note-snap.ipynb?student=Ana"
    assert client.kernel_id_of(page) == "1a2b-3c"
    assert client.assets_of(page, url) == ["http://127.0.0.1:9/voila/static/voila.js?v=1&w=2",
                                           "http://127.0.0.1:9/voila/static/a.css"]
    with pytest.raises(client.StudentError):
        client.kernel_id_of("<html>no kernel here</html>")


def test_class_sizes_are_read_from_a_list() -> None:
    bench = _bench()
    assert bench.parse_args(["--students", "1,4,8"]).students == [1, 4, 8]
    assert bench.parse_args(["--sizes", "2", "3"]).students == [2, 3]
    with pytest.raises(SystemExit):
        bench.parse_args(["--students", "1,x"])


@pytest.mark.slow
def test_two_protocol_students_play_on_a_real_server_and_get_its_answers(
        tmp_path: Path) -> None:
    bench = _bench()
    options = bench.parse_args(["--students", "2", "--seconds", "9"])
    row = bench.measure(2, options, tmp_path)
    assert not row.errors  # every student opened and played; every kernel stopped on leaving
    assert not row.notices  # no table said something went wrong (settings, progress)
    assert len(row.startups) == 2 and row.kernels == 2
    assert row.asset_mib > 0  # the pages' scripts and styles were fetched
    # the kernels answered: the student who calls the names herself got her new game, the
    # game started for both (cards were shown and slapped or passed), none unanswered
    assert row.by_kind["new_game"] == 1
    assert row.by_kind.get("slap", 0) + row.by_kind.get("pass", 0) > 0
    assert row.unanswered == 0 and row.cards > 0
    assert all(ms > 0 for ms in row.answers)
    # each student's answers went to their own progress file, as a page's would
    for name in ("bench-2-0", "bench-2-1"):
        assert read_answers(tmp_path / "class" / f"{name}.sqlite3")
    # the server stopped its kernels itself, and nothing it started is left
    assert row.killed == 0 and len(row.pids) == 3
    assert not [pid for pid in row.pids if _alive(pid)]


def _alive(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.Error:
        return False
