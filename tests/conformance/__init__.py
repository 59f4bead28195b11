"""Conformance vectors: games played on the Python rules engine, for the JavaScript port to replay.

``python -m tests.conformance.generate`` writes them to ``tests/js/vectors/``;
``tests/js/rules-conformance.test.js`` replays them on ``scorekeeper/static/js/rules/`` and
``tests/rules/test_conformance_vectors.py`` fails when they are stale (docs/conformance.md).
"""
