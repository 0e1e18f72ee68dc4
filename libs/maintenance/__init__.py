"""Housekeeping every service gets without writing it: one purge policy for the tables that
only grow (``policy.py``), run for every service by one Celery beat entry (``tasks.py``, loaded by
``services/worker.py``). See docs/operations.md."""
