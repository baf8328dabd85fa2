from fastapi.testclient import TestClient

from backend.main import app


def test_docs_up():
    with TestClient(app) as c:
        assert c.get("/docs").status_code == 200
