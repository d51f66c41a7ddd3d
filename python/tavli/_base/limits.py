"""Default caps of the frontends: a deep search that a person or a GUI starts stops here unless told
otherwise (nobody at a prompt means "forever"). The HTTP server has its own, smaller per-request
budget (tavli.server.app.CPU_BUDGET)."""

# seconds: the default time limit of `tavli analyze` (per roll) and of a UBGI search (MaxTime)
FRONTEND_TIME_LIMIT = 60.0
