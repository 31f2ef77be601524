from pathlib import Path

import orjson
import pytest

from tui_bench.errors import UsageError
from tui_bench.request import recent
from tui_bench.request.recent import Config
from tui_bench.request.run import RunRequest
from tui_bench.request.sweep_settings import SweepSettings
from tui_bench.spec import RunSpec

URL = "http://127.0.0.1:8080/"
SWEEP = SweepSettings(
    vary=("c=10,50,100", "m=1,10"), ramp=(), repeat=3, cool_down_s=0.5, slo="p99<50ms,errors<1%"
)


def request(c: int = 10) -> RunRequest:
    return RunRequest(RunSpec(urls=(URL,), connections=c, duration_s=10.0))


def run(c: int = 10) -> Config:
    return Config(request(c))


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
        recent.remember(run(c), path)
    recent.remember(run(5), path)
    loaded = recent.load(path)
    assert [r.request.spec.connections for r in loaded] == [5, 12, 11, 10, 9, 8, 7, 6, 4, 3]
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
    assert recent.remember(Config(full), path) == [Config(full)]
    assert recent.load(path) == [Config(full)]


@pytest.mark.parametrize(
    "content",
    [b"", b"{not json", b"[1, 2]", b'{"recent": 3}', b'{"recent": {"a": 1}}', b"\xff\xfe"],
)
def test_a_damaged_file_reads_as_empty_and_is_replaced(path: Path, content: bytes) -> None:
    path.parent.mkdir(parents=True)
    path.write_bytes(content)
    assert recent.load(path) == []
    assert recent.remember(run(), path) == [run()]
    assert recent.load(path) == [run()]


def test_bad_entries_are_dropped_good_ones_kept(path: Path) -> None:
    good = request(7).to_dict()
    bad_tool = request().to_dict()
    bad_tool["spec"]["tool"] = "curl"
    wrong_type = request().to_dict()
    wrong_type["spec"]["connections"] = "many"
    entries = [1, "x", {}, {"spec": []}, bad_tool, wrong_type, good]
    path.parent.mkdir(parents=True)
    path.write_bytes(orjson.dumps({"version": 1, "recent": entries}))
    assert recent.load(path) == [run(7)]


def test_the_write_is_atomic_and_leaves_no_temporary_file(path: Path) -> None:
    recent.remember(run(), path)
    recent.remember(run(2), path)
    assert sorted(p.name for p in path.parent.iterdir()) == ["recent.json"]
    assert orjson.loads(path.read_bytes())["version"] == recent.FORMAT_VERSION


def test_an_unwritable_place_raises_oserror(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    with pytest.raises(OSError):
        recent.remember(run(), blocker / "recent.json")


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
        "ab c10 t1 http/1.0 -d 1s (500ms asked: ab runs whole seconds) -k http://127.0.0.1:80/"
        " server none"
    )


def test_a_sweep_is_kept_beside_the_same_run_alone(path: Path) -> None:
    swept = Config(request(), SWEEP)
    recent.remember(run(), path)
    assert recent.remember(swept, path) == [swept, run()]
    assert recent.load(path) == [swept, run()]
    entry = orjson.loads(path.read_bytes())["recent"][0]
    # A run's entry with the sweep beside: a tuibench that knows no sweeps reads the run.
    assert RunRequest.from_dict(entry) == request()
    assert entry["sweep"]["vary"] == ["c=10,50,100", "m=1,10"]


def test_a_file_from_before_sweeps_reads_as_runs(path: Path) -> None:
    path.parent.mkdir(parents=True)
    path.write_bytes(orjson.dumps({"version": 1, "recent": [request(3).to_dict()]}))
    assert recent.load(path) == [Config(request(3), None)]


def test_a_sweep_that_cannot_run_is_dropped(path: Path) -> None:
    def entry(**sweep: object) -> dict[str, object]:
        return {**request().to_dict(), "sweep": {**SWEEP.to_dict(), **sweep}}

    bad = [
        entry(vary=["c=0,1"]),  # c=0 is no connection count
        entry(vary="c=1,2"),  # a string where clauses go
        entry(ramp=["c=10/3"]),  # 10 is not a multiple of 3
        entry(ramp=["c=400/4"]),  # c is varied twice
        entry(vary=["t=20"]),  # -t 20 is more than -c 10
        entry(repeat=0),
        entry(cool_down_s=-1),
        entry(slo="p99<<1ms"),
        {**request().to_dict(), "sweep": [1]},
    ]
    good = entry(ramp=["t=4/2"], slo=None)
    path.parent.mkdir(parents=True)
    path.write_bytes(orjson.dumps({"version": 1, "recent": [*bad, good]}))
    swept = Config(request(), SweepSettings(SWEEP.vary, ("t=4/2",), 3, 0.5, None))
    assert recent.load(path) == [swept]


def test_a_sweeps_base_needs_no_url_when_the_url_varies() -> None:
    base = RunRequest(RunSpec(urls=(), duration_s=1.0))
    sweep = SweepSettings(vary=(f"url={URL},{URL}x",))
    Config(base, sweep).check()
    plan = sweep.plan(base, {"h2load": "/opt/h2load"})
    assert [p.spec.urls for p in plan.points] == [(URL,), (f"{URL}x",)]
    assert plan.points[0].tool_path == "/opt/h2load"
    with pytest.raises(UsageError, match="no URL"):
        Config(base).check()


def test_is_sweep_when_something_varies_or_repeats() -> None:
    assert not SweepSettings().is_sweep
    assert not SweepSettings(slo="p99<1s", cool_down_s=0).is_sweep
    assert SweepSettings(repeat=2).is_sweep
    assert SweepSettings(ramp=("c=4/2",)).is_sweep
    assert SWEEP.slo_clauses()[0].metric == "p99_s"


def test_describe_config_puts_what_the_sweep_varies_first() -> None:
    assert recent.describe_config(run(100)) == recent.describe(request(100))
    assert recent.describe_config(Config(request(), SWEEP)) == (
        "sweep c=10,50,100 m=1,10 ×3 SLO p99<50ms,errors<1%"
        " · h2load c10 t1 h2c -d 10s http://127.0.0.1:8080/"
    )
    no_url = RunRequest(RunSpec(urls=(), duration_s=1.0))
    swept = Config(no_url, SweepSettings(vary=(f"url={URL},{URL}x",)))
    assert recent.describe_config(swept) == f"sweep url={URL},{URL}x · h2load c10 t1 -d 1s"
