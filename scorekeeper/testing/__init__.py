"""What the tests and the benchmarks share: a real server, a PostgreSQL of their own, a schema
made for a run, and a game played over HTTP.

Only the tests and ``bench/`` import it; the app never does.
"""
