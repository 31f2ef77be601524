import pytest

from tui_bench.errors import UsageError
from tui_bench.typed_values import format_duration, parse_duration, parse_positive_int


@pytest.mark.parametrize(
    ("text", "seconds"),
    [("10", 10.0), ("10s", 10.0), ("500ms", 0.5), ("2m", 120.0), ("1h", 3600), ("1.5s", 1.5)],
)
def test_durations(text: str, seconds: float) -> None:
    assert parse_duration(text) == seconds


@pytest.mark.parametrize("text", ["ten", "-1s", "5x", "", "inf", "nans", "1e400s"])
def test_bad_durations_are_one_line_usage_errors(text: str) -> None:
    with pytest.raises(UsageError, match="bad duration"):
        parse_duration(text)


@pytest.mark.parametrize(
    ("seconds", "text"),
    [(10.0, "10s"), (0.5, "500ms"), (120.0, "2m"), (90.0, "90s"), (1.5, "1.5s"), (3600, "1h")],
)
def test_format_duration_is_short_and_reads_back(seconds: float, text: str) -> None:
    assert format_duration(seconds) == text
    assert parse_duration(text) == seconds


@pytest.mark.parametrize("seconds", [0.3, 12.345678901, 7200.5, 1e-7, 0.0015])
def test_any_duration_reads_back_exactly(seconds: float) -> None:
    assert parse_duration(format_duration(seconds)) == seconds


def test_positive_ints() -> None:
    assert parse_positive_int("16") == 16
    with pytest.raises(UsageError, match="expected a whole number, got 'x'"):
        parse_positive_int("x")
    with pytest.raises(UsageError, match="expected at least 1, got 0"):
        parse_positive_int("0")
    assert parse_positive_int(str(2**31 - 1)) == 2**31 - 1
    with pytest.raises(UsageError, match="expected at most 2,147,483,647, got 2,147,483,648"):
        parse_positive_int(str(2**31))
    with pytest.raises(UsageError, match="expected at most 9, got 10"):
        parse_positive_int("10", 9)
