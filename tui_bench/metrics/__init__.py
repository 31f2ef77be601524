"""A run's figures where teams already keep theirs: Prometheus (remote write, OpenMetrics),
HdrHistogram interval logs. Each second's figures are the series' own, named once in
`catalogue`."""
