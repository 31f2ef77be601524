"""Exact status codes: bounded, folded into their class, named."""

from __future__ import annotations

from tui_bench.result import Requests, Result
from tui_bench.status_codes import MAX_CODES, bounded, class_of, named, of_class


def test_codes_and_folded_keys_belong_to_their_class() -> None:
    assert [class_of(k) for k in ("405", "4xx", "200", "599")] == ["4xx", "4xx", "2xx", "5xx"]
    # Failures (-1), codes outside 2xx-5xx and anything else have no class.
    assert [class_of(k) for k in ("-1", "101", "600", "40", "4050", "xxx", "")] == [None] * 7


def test_at_most_max_codes_are_kept_the_rest_folded_into_their_class() -> None:
    # 30 distinct 4xx codes, the higher the code the more common, and a lone 200.
    counts = {str(400 + i): 10 + i for i in range(30)} | {"200": 1, "-1": 5, "0": 3}
    kept = bounded(counts)
    exact = [k for k in kept if k.isdigit()]
    assert len(exact) == MAX_CODES
    # The most common are kept: the 200 (least common) and 400..410 are folded.
    assert exact == [str(c) for c in range(410, 430)]
    assert kept["4xx"] == sum(10 + i for i in range(10)) and kept["2xx"] == 1
    # By code, each class's folded rest after its codes.
    assert list(kept) == ["2xx", *exact, "4xx"]
    # Nothing is lost: each class's codes add up to its count.
    assert sum(kept.values()) == sum(n for k, n in counts.items() if class_of(k))
    # Bounding again (merging runs) changes nothing.
    assert bounded(kept) == kept


def test_ties_keep_the_lower_code_and_zero_counts_go() -> None:
    assert bounded({"404": 2, "403": 2, "500": 0}, keep=1) == {"403": 2, "4xx": 2}


def test_of_class_orders_by_count_and_leaves_out_the_folded_rest() -> None:
    codes = {"200": 9, "404": 1, "405": 7, "4xx": 50}
    assert of_class(codes, "4xx") == [("405", 7), ("404", 1)]
    assert of_class(codes, "5xx") == []


def test_codes_are_named_with_their_reason_phrase() -> None:
    assert named("405") == "405 Method Not Allowed"
    # nginx's 499 has no standard phrase.
    assert named("499") == "499"


def test_older_results_load_without_codes_and_new_ones_keep_them() -> None:
    result = Result("h2load", requests=Requests(total=3), status={"4xx": 3})
    old = result.to_dict()
    del old["status_codes"]
    assert Result.from_dict(old).status_codes == {}
    new = result.with_(status_codes={"405": 3})
    assert new.to_dict()["status_codes"] == {"405": 3}
    assert Result.from_dict(new.to_dict()) == new


def test_the_status_row_names_the_codes_outside_2xx() -> None:
    from tui_bench.report.text import status_text

    result = Result(
        "h2load",
        status={"2xx": 100, "3xx": 0, "4xx": 9_812, "5xx": 7},
        status_codes={"200": 60, "204": 40, "404": 2, "405": 9_800, "413": 5, "415": 4, "4xx": 1}
        | {"503": 7},
    )
    assert status_text(result) == (
        "100 2xx, 0 3xx, 9,812 4xx (405 ×9,800, 413 ×5, 415 ×4, …), 7 5xx (503 ×7)"
    )
    # Codes unknown (wrk, ab, older sessions): the classes alone, as before.
    assert status_text(result.with_(status_codes={})) == "100 2xx, 0 3xx, 9,812 4xx, 7 5xx"
