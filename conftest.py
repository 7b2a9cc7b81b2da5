"""The whole suite's fixtures are the testing kit's (tests/kit/fixtures.py), registered here for
every test; an app's own fixtures are in its tests/conftest.py."""

pytest_plugins = ["tests.kit.fixtures"]
