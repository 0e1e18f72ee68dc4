"""PostgreSQL plumbing shared by every service: connection pools and schema migrations."""

from libs.db.migrate import migrate
from libs.db.pool import make_pool

__all__ = ["make_pool", "migrate"]
