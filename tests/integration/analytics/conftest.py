"""The analytics tests play real matches: the match service's fixtures (a migrated schema, the app,
players, the operator's match creation) are used here as in the match tests."""

from tests.integration.match.conftest import *  # noqa: F403 (its fixtures)
