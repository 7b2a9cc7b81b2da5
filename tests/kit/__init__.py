"""The testing kit: what the tests of every app, the cross-app tests and the benchmarks share,
each helper in one module here.

- `fixtures.py`: the shared pytest fixtures, registered for the whole suite by the root
  conftest.py (`team`, `team_keys`, `live_client`, `frozen_time`, `https_receiver`, ...).
- `factories.py`: rows made the way the services make them (`make_team`, `fund`,
  `make_endpoint`, `record`). The factory_boy factories stay in each app's `tests/factories.py`.
- `clock.py`: `NOW`, the instant `frozen_time` stops the clock at.
- `passengers.py`: `passenger()`, the lead passenger of the bookings tests and benchmarks make.
- `marks.py`: `needs_postgresql(why)`, the mark of the tests SQLite cannot run.
- `panel.py`: `browser_for(user)`, a test client logged into the panel.
- `browsers.py`: headless Chromium for the browser tests.
- `receiver.py`: an agency's HTTPS webhook receiver, also a program
  (`python -m tests.kit.receiver`).
- `stack.py`: the real stack as processes (gunicorn, Celery workers and beat).
- `pooler.py`: the test database behind PgBouncer.
- `wsgi.py`: `wsgi_call`, one request through Django's WSGI handler as gunicorn makes it.
- `model_copies.py`: `with_field`, a copy of a model with a field added (the tests that
  hand-written INSERTs follow the models' fields).

The kit imports application code, never a test module nor an app's `tests`; application code
never imports the kit (tests/test_suite_layout.py checks both). This package's `__init__`
imports nothing, so that a program of the kit can start before Django is set up.
"""
