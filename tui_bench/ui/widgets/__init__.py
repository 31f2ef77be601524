"""Small widgets of the live screen, each with its CSS beside it."""
