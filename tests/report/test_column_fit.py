from tui_bench.report.column_fit import fit_columns

# The sessions browser's columns at their natural widths, a sweep's long name among them.
NATURAL = {"date": 15, "name": 40, "tool": 12, "url": 23, "c": 2, "rps": 6, "validity": 8}


def test_a_long_name_gives_up_its_middle_before_the_url_goes() -> None:
    kept = fit_columns(NATURAL, 100, ("url",), caps={"name": 26}, elided=("name", "url"))
    assert "url" in kept and 16 <= kept["name"] < 26
    assert sum(w + 2 for w in kept.values()) <= 100


def test_the_name_stays_whole_where_shortening_it_would_not_keep_the_url() -> None:
    kept = fit_columns(NATURAL, 90, ("url",), caps={"name": 26}, elided=("name", "url"))
    assert "url" not in kept and kept["name"] == 26
