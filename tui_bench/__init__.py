"""tuibench: drive h2load, wrk and ab, watch runs live, keep and compare sessions."""

__version__ = "0.1.0"
