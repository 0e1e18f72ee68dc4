"""PostgreSQL plumbing shared by every service: connection pools and schema migrations."""

from libs.db.migrate import migrate
from libs.db.pool import (
    CELERY_CHILD_POOL_MAX,
    CONSUMERS_POOL_MAX,
    RELAY_POOL_MAX,
    WEB_WORKER_POOL_MAX,
    make_pool,
    pool_max,
)

__all__ = [
    "CELERY_CHILD_POOL_MAX",
    "CONSUMERS_POOL_MAX",
    "RELAY_POOL_MAX",
    "WEB_WORKER_POOL_MAX",
    "make_pool",
    "migrate",
    "pool_max",
]
