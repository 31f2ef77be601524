"""The one path from what the user asked to a recorded verdict, for a run, a sweep and
the capacity search: prepare (tools, hosts, the split across generators, the server, the
baseline) -> run -> judge (validity, thresholds, baseline) -> record. The CLI and the app
only ask and show; anything a job can refuse is refused here, before any load."""
