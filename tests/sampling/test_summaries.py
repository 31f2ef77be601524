from dataclasses import replace

from tui_bench.sampling.samples import ResourceSample
from tui_bench.sampling.summaries import SampleTally, client_bound, summarize

BASE = ResourceSample(
    t_s=0.0,
    server_cpu_pct=100.0,
    server_rss_bytes=10_000_000,
    server_uss_bytes=None,
    server_pss_bytes=None,
    server_procs=3,
    server_threads=3,
    server_fds=20,
    system_cpu_pct=(50.0, 50.0, 50.0, 50.0),
    system_mem_used_bytes=1,
    system_mem_total_bytes=2,
    client_cpu_pct=40.0,
    client_thread_max_pct=40.0,
    sampler_cpu_pct=0.25,
)


def client(cpu: float | None, busiest: float | None) -> ResourceSample:
    return replace(BASE, client_cpu_pct=cpu, client_thread_max_pct=busiest)


def test_busiest_thread_saturated_most_of_the_run() -> None:
    samples = [client(0.0, 0.0)] + [client(180.0, 97.0)] * 3
    assert client_bound(samples, generator_threads=4)


def test_busy_thread_only_briefly_is_not_client_bound() -> None:
    samples = [client(95.0, 95.0)] + [client(40.0, 40.0)] * 3
    assert not client_bound(samples, generator_threads=1)


def test_total_cpu_against_threads() -> None:
    # Two threads at 92 % each: no single thread reads ≥ 90 if spread, but the total does.
    assert client_bound([client(185.0, None)] * 2, generator_threads=2)
    assert not client_bound([client(185.0, None)] * 2, generator_threads=4)


def test_threads_beyond_cores_are_capped_by_the_cores() -> None:
    two_cores = replace(client(190.0, 60.0), system_cpu_pct=(95.0, 95.0))
    assert client_bound([two_cores] * 3, generator_threads=8)


def test_no_client_samples_is_not_client_bound() -> None:
    assert not client_bound([client(None, None)] * 3, generator_threads=1)
    assert not client_bound([], generator_threads=1)


def test_summarize() -> None:
    samples = [
        replace(BASE, server_cpu_pct=50.0, server_rss_bytes=5, client_cpu_pct=10.0),
        replace(BASE, server_cpu_pct=150.0, server_rss_bytes=9, client_cpu_pct=None),
        replace(BASE, server_cpu_pct=None, server_rss_bytes=None, client_cpu_pct=30.0),
    ]
    assert summarize(samples) == {
        "server_cpu_mean_pct": 100.0,
        "server_cpu_max_pct": 150.0,
        "server_rss_max_bytes": 9,
        "client_cpu_mean_pct": 20.0,
        "client_cpu_max_pct": 30.0,
        "sampler_cpu_mean_pct": 0.25,
    }


def test_summarize_nothing() -> None:
    assert set(summarize([]).values()) == {None}


def test_a_tally_as_samples_come_says_what_the_samples_say() -> None:
    samples = [
        replace(BASE, server_cpu_pct=10.0 * i, server_rss_bytes=1000 * (i % 3) or None)
        for i in range(50)
    ] + [client(180.0, 97.0)] * 30
    tally = SampleTally(generator_threads=4)
    for sample in samples:
        tally.add(sample)
    assert tally.summary() == summarize(samples)
    assert tally.summary()["server_rss_max_bytes"] == 10_000_000
    assert tally.client_bound() is client_bound(samples, 4) is False
    assert SampleTally().summary() == dict.fromkeys(summarize([]))
