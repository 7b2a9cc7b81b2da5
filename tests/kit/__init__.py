"""The testing kit: what the tests of every app, the cross-app tests and the benchmarks share,
each helper in one module here. `fixtures.py` holds the shared pytest fixtures, registered for
the whole suite by the root conftest.py."""
