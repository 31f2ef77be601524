"""The limit of a run's validity that the user sets (`--max-errors`, the run form's max
errors): plain data, so that the flags and the form are read without loading the judging
itself (validity.py)."""

# Failed requests above this share of all make a run invalid (`--max-errors PCT`).
DEFAULT_MAX_ERRORS = 0.01
