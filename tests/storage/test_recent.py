from pathlib import Path

import orjson
import pytest

from tui_bench.engine.request import RunRequest
from tui_bench.spec import RunSpec
from tui_bench.storage import recent


def request(c: int = 10) -> RunRequest:
    return RunRequest(RunSpec(urls=("http://127.0.0.1:8080/",), connections=c, duration_s=10.0))


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "config" / "tuibench" / "recent.json"


def test_path_follows_xdg_config_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    assert recent.recent_path() == tmp_path / "xdg" / "tuibench" / "recent.json"
    monkeypatch.delenv("XDG_CONFIG_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert recent.recent_path() == tmp_path / "home" / ".config" / "tuibench" / "recent.json"


def test_missing_file_is_an_empty_list(path: Path) -> None:
    assert recent.load(path) == []


def test_remember_keeps_the_newest_first_once_and_at_most_ten(path: Path) -> None:
    for c in range(1, 13):
        recent.remember(request(c), path)
    recent.remember(request(5), path)
    loaded = recent.load(path)
    assert [r.spec.connections for r in loaded] == [5, 12, 11, 10, 9, 8, 7, 6, 4, 3]
    assert len(loaded) == recent.MAX_RECENT


def test_requests_read_back_equal(path: Path) -> None:
    full = RunRequest(
        RunSpec(
            urls=("http://127.0.0.1:8080/a", "http://127.0.0.1:8080/b"),
            connections=100,
            threads=2,
            duration_s=3.0,
            warm_up_s=1.0,
            streams=10,
            headers=("X-A: 1",),
            compress="gzip",
        ),
        server_mode="pid",
        server_pid=1234,
        name="before",
        tags=("nginx", "h2c"),
    )
    assert recent.remember(full, path) == [full]
    assert recent.load(path) == [full]


@pytest.mark.parametrize(
    "content",
    [b"", b"{not json", b"[1, 2]", b'{"recent": 3}', b'{"recent": {"a": 1}}', b"\xff\xfe"],
)
def test_a_damaged_file_reads_as_empty_and_is_replaced(path: Path, content: bytes) -> None:
    path.parent.mkdir(parents=True)
    path.write_bytes(content)
    assert recent.load(path) == []
    assert recent.remember(request(), path) == [request()]
    assert recent.load(path) == [request()]


def test_bad_entries_are_dropped_good_ones_kept(path: Path) -> None:
    good = request(7).to_dict()
    bad_tool = request().to_dict()
    bad_tool["spec"]["tool"] = "curl"
    wrong_type = request().to_dict()
    wrong_type["spec"]["connections"] = "many"
    entries = [1, "x", {}, {"spec": []}, bad_tool, wrong_type, good]
    path.parent.mkdir(parents=True)
    path.write_bytes(orjson.dumps({"version": 1, "recent": entries}))
    assert recent.load(path) == [request(7)]


def test_the_write_is_atomic_and_leaves_no_temporary_file(path: Path) -> None:
    recent.remember(request(), path)
    recent.remember(request(2), path)
    assert sorted(p.name for p in path.parent.iterdir()) == ["recent.json"]
    assert orjson.loads(path.read_bytes())["version"] == recent.FORMAT_VERSION


def test_an_unwritable_place_raises_oserror(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    with pytest.raises(OSError):
        recent.remember(request(), blocker / "recent.json")


def test_describe_says_what_would_run() -> None:
    assert recent.describe(request(100)) == "h2load c100 t1 h2c -d 10s http://127.0.0.1:8080/"
    spec = RunSpec(
        urls=("https://127.0.0.1:8443/",),
        connections=16,
        requests=20000,
        streams=10,
        headers=("X-A: 1", "X-B: 2"),
        compress="br",
    )
    labelled = RunRequest(spec, server_mode="name", server_name="nginx", name="b", tags=("x",))
    assert recent.describe(labelled) == (
        "h2load c16 t1 m10 h2 -n 20,000 br -H×2 https://127.0.0.1:8443/ server nginx · b [x]"
    )
    ab = RunSpec(urls=("http://127.0.0.1:80/",), tool="ab", duration_s=0.5, keepalive=True)
    assert recent.describe(RunRequest(ab, server_mode="none")) == (
        "ab c10 t1 http/1.0 -d 500ms -k http://127.0.0.1:80/ server none"
    )
