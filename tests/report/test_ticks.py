from tui_bench.report.ticks import nice_ticks, tick_label


def test_ticks_are_round_numbers_around_the_data() -> None:
    assert nice_ticks(22588, 33232) == [20000, 25000, 30000, 35000]
    assert nice_ticks(0.3085, 17.09) == [0, 5, 10, 15, 20]
    assert nice_ticks(5.0, 5.0) == [4.5, 5.0, 5.5]
    assert tick_label(22000, [20000, 22000]) == "22,000"
    assert tick_label(0.25, [0.2, 0.25]) == "0.25"
