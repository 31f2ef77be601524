"""The long help of the commands that explain their method: sweep, compare, history and
plot. Text only, so that the grammar (cli/args.py) stays short."""

from __future__ import annotations

from tui_bench.analysis.names import DEFAULT_PRIMARY, TESTED
from tui_bench.analysis.run_counts import MIN_RUNS, fewest_runs
from tui_bench.spec import COMPRESSIONS, PROTOCOLS

_PROTOCOLS = ", ".join(PROTOCOLS)
# What a gate and a comparison decide, the same for compare, run and sweep.
_VERDICTS = f"""\
Verdicts come in two tiers. tested: with {MIN_RUNS} runs a side or more, a Mann-Whitney test
of the runs' values; better or worse when p < 0.05, else no difference. likely: with fewer
runs, likely better or likely worse when every run of one side is beyond every run of the
other by a margin run-to-run noise rarely reaches, else insufficient data. The primary
metric (--gate-metric, default {DEFAULT_PRIMARY}) is tested alone at 0.05. The others of
{", ".join(TESTED)} are secondary: adjusted among
themselves by Holm, they need {fewest_runs(len(TESTED) - 1)} runs a side to reach a tested verdict.
--fail-on-regression gates on the primary metric alone, at the tier --verdict names
(tested, or likely, which counts both tiers' worse)."""

SWEEP_DESCRIPTION = f"""\
Runs every point of a grid, one run at a time with a cool-down between runs, and keeps
the whole sweep as one session. The run options (-c, -m, -d, --tool, ...) set what every
point starts from; each --vary or --ramp varies one parameter, and several make the
cartesian product.

  --vary NAME=V1,V2,...   NAME is c, t, m, n, d, warm-up, rate, tool, url, protocol
                          ({_PROTOCOLS}: HTTP/1.1, HTTP/2 over cleartext, HTTP/2 over TLS)
                          compress ({", ".join(COMPRESSIONS)}, none), method or body
                          (files: --vary body=small.json,large.json): --vary c=100,200,400
  --ramp NAME=MAX/STEPS   STEPS equal steps up to MAX: --ramp c=400/4 is 100,200,300,400,
                          --ramp rate=20k/4 is 5000,10000,15000,20000 req/s (h2load)
  --label NAME=ARGS       a labelled command: ARGS (split like a shell; quote them) are
                          run options and URLs that replace the common ones for this
                          label, e.g. for a server before and after a change:
                            --label old=http://127.0.0.1:8080/ \\
                            --label 'new=http://127.0.0.1:8081/ --server-name nginx-new'
  --repeat N              N runs of every point, interleaved: round 1 runs every point,
                          round 2 runs them backwards ... (A B B A, not A A B B)

A point's req/s and each of its latency percentiles are the median of its completed runs'
(the req/s with sd, range and a 95 % CI of the mean beside it): one disturbed run does not
move it, and it is the figure compare tests. --slo names the knee: the valid point with the
most req/s that meets every clause; varying rate, the highest rate held that meets it (a
rate not held makes its point invalid). Exit status as for run, and 99 when the runs went well but a
--threshold failed or --fail-on-regression found a regression against --baseline.

{_VERDICTS}
"""

COMPARE_DESCRIPTION = f"""\
Compares B with A (the baseline), the run being the unit: each run gives one value per
metric. A and B are session files, ids or id prefixes; a point of a sweep is named by
appending @POINT, its name as the sweep prints it or its number from 1 (ID@c=200, ID@2).
A sweep of one point (a plain --repeat N) needs no @POINT; two points of one sweep are
ID@c=100 ID@c=200. NAME@latest, NAME@-2, NAME@best (most req/s of the valid runs) and
NAME@baseline (tuibench baseline set) name the runs saved with --name NAME.

Per metric: the change of the median in %, its 95 % CI (bootstrap) and p (Mann-Whitney).
Set-up differences are listed (tool, version, protocol: http/1.1, h2c or h2 for h2load
(sweep --vary protocol={_PROTOCOLS}), http/1.1 for wrk, http/1.0 for ab; connections, URL,
host ...). --json prints it all; else the screen opens.

{_VERDICTS}
"""


HISTORY_DESCRIPTION = """\
Every saved session of one benchmark (the sessions run with --name NAME), oldest first:
req/s and p99 of each run (of each point, the median of its runs and their range, for
sweeps), the set-up changes between runs, and the change points: the runs where the level
of req/s or p99 changed (PELT, then Welch's t-test between the levels). Invalid runs are
listed apart and left out of the trend and the change points. On a terminal it opens the
history screen; --headless (or a pipe) prints the table.
"""


PLOT_DESCRIPTION = """\
Draws the charts of a session on standard output, without the live screen. A sweep: each
metric against the first parameter it varied (the label when only labelled commands
differ), a line per value of the others, the knee of --slo marked; req/s is the median of
a point's runs, with a bar from its slowest to its fastest run. A sweep that varies rate
(capacity's too) adds p50, p99 and p99.9 from when due against the req/s each rate
achieved, on a log scale: where the latency turns up is the capacity. A single run, or one point
of a sweep (ID@c=200: its first run when it has several): each metric over the run. On a
terminal a chart fills the screen; elsewhere it is 100x25, without colour (also with
NO_COLOR set).
"""
