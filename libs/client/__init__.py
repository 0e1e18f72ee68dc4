"""A typed Python client of the Arcana REST API (requests-based). It knows the API only through
its public documents: every operation it calls is declared in ``operations`` and checked against
the services' OpenAPI documents by ``tests/unit/test_client_contract.py``. It imports nothing of
the server.

    client = ArcanaClient("http://127.0.0.1:8000")
    client.register("ada", "correct horse battery")
    client.log_in("ada", "correct horse battery")       # keeps the bearer token
    match = client.practice()
    view = client.match(match["match_id"])
"""

from libs.client.client import ApiError, ArcanaClient
from libs.client.operations import ALL as OPERATIONS
from libs.client.operations import Operation

__all__ = ["OPERATIONS", "ApiError", "ArcanaClient", "Operation"]
