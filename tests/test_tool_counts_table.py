"""README's "What each tool counts" table has the rows and tools the real runs check."""

from __future__ import annotations

from tests.integration.tool_counts import ROWS, TOOLS, counted


def test_the_table_has_every_row_for_every_tool() -> None:
    table = counted()
    assert tuple(table) == ROWS
    assert all(tuple(cells) == TOOLS and all(cells.values()) for cells in table.values())
