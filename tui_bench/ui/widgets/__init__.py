"""The widgets and dialogs the screens are built of, each with its CSS beside it."""
