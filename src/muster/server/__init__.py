"""The web app: play the registered games in the browser (Starlette + uvicorn, SQLAlchemy + Alembic).

``create_app(database_url)`` builds the ASGI app; ``muster serve`` runs it. Games are stored as
(seed, options, action list) plus hashed seat tokens, rebuilt by replay and cached in memory.
"""

from muster.server.app import create_app

__all__ = ["create_app"]
