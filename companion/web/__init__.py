"""The web app: a FastAPI factory, one router per area, and the static dashboard."""
