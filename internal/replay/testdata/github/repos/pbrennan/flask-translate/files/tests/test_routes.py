from unittest import mock

from app import create_app


def test_translate_requires_text():
    client = create_app().test_client()
    assert client.post("/api/translate", json={}).status_code == 400


@mock.patch("app.routes.requests.post")
def test_translate_proxies(post):
    post.return_value.ok = True
    post.return_value.json.return_value = {"translatedText": "hola"}
    client = create_app().test_client()
    r = client.post("/api/translate", json={"text": "hello", "target": "es"})
    assert r.get_json() == {"translatedText": "hola"}
