import math

from tui_bench.report.ticks import log_ticks, nice_ticks, tick_label, time_ticks


def test_ticks_are_round_numbers_around_the_data() -> None:
    assert nice_ticks(22588, 33232) == [20000, 25000, 30000, 35000]
    assert nice_ticks(0.3085, 17.09) == [0, 5, 10, 15, 20]
    assert nice_ticks(5.0, 5.0) == [4.5, 5.0, 5.5]
    assert tick_label(22000, [20000, 22000]) == "22,000"
    assert tick_label(0.25, [0.2, 0.25]) == "0.25"


def test_a_log_axis_has_powers_of_ten_or_1_2_5_steps_within_few_decades() -> None:
    positions, labels = log_ticks(1.5, 400)
    assert labels == ["1", "10", "100", "1,000"] and positions == [0, 1, 2, 3]
    assert log_ticks(0.3, 4)[1] == ["0.2", "0.5", "1", "2", "5"]
    assert log_ticks(10, 10)[1] == ["10", "20"]


def test_ticks_step_by_1_2_or_5_times_a_power_of_ten() -> None:
    for low, high, most in ((0, 70862, 3), (0, 56_000, 5), (0.013, 0.0297, 4), (3, 599, 6)):
        ticks = nice_ticks(low, high, most)
        step = ticks[1] - ticks[0]
        mantissa = step / 10 ** math.floor(math.log10(step) + 1e-9)
        assert round(mantissa, 6) in (1, 2, 5), (low, high, ticks)
        assert ticks[0] <= low and ticks[-1] >= high and len(ticks) <= most + 2
    assert nice_ticks(0, 70862, 3) == [0, 50_000, 100_000]
    assert nice_ticks(0, 599, 6) == [0, 100, 200, 300, 400, 500, 600]


def test_an_axis_of_zeros_starts_at_zero() -> None:
    assert nice_ticks(0, 0) == [0, 1]
    assert nice_ticks(-2.0, -2.0) == [-2.2, -2.0, -1.8]


def test_a_time_axis_reads_in_seconds_minutes_or_hours() -> None:
    # Short runs read as before: bare seconds from 0 to at least 1.
    assert time_ticks(5) == ([0.0, 1.0, 2.0, 3.0, 4.0, 5.0], ["0", "1", "2", "3", "4", "5"])
    assert time_ticks(0.4)[1][-1] == "1.0"
    assert time_ticks(95)[1] == ["0", "20", "40", "60", "80", "100"]
    ticks, labels = time_ticks(45 * 60)
    assert labels == ["0m", "10m", "20m", "30m", "40m", "50m"] and ticks[1] == 600
    ticks, labels = time_ticks(24 * 3600)
    assert labels == ["0h", "5h", "10h", "15h", "20h", "25h"] and ticks[-1] == 25 * 3600
    assert time_ticks(7300)[1][:3] == ["0.0h", "0.5h", "1.0h"]


def test_the_last_minutes_of_a_long_run_read_as_its_clock_there() -> None:
    # The last 10 minutes at hour 23: by the minute, h:mm, and nothing past the end.
    ticks, labels = time_ticks(23 * 3600, most=5, start_s=23 * 3600 - 600)
    assert labels[0] == "22:50" and labels[-1] == "23:00", labels
    assert ticks[0] == 23 * 3600 - 600 and ticks[-1] == 23 * 3600
    # Its last minute: by the second.
    _, labels = time_ticks(23 * 3600 + 30, most=3, start_s=23 * 3600 - 30)
    assert labels == ["22:59:20", "22:59:40", "23:00:00", "23:00:20", "23:00:40"], labels
    # The last minute at minute 30: m:ss.
    assert time_ticks(1800, most=3, start_s=1740)[1] == ["29:00", "29:20", "29:40", "30:00"]
