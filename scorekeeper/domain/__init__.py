"""The domain service: games, their rounds, and their history, on the session's unit of work.

It takes validated input, raises the errors in ``domain.errors``, and knows
nothing of HTTP; data flows from it to the rules engine and to storage.
"""
