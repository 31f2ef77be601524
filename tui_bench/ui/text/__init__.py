"""What the screens show as text: pure functions from state to strings and Rich text."""
