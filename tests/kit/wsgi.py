"""One request straight through Django's WSGI handler, for the benchmarks and the tests that
measure what a request leaves behind."""

import io
import sys


def wsgi_call(handler, method: str, path: str, *, key: str = "", body: bytes = b"") -> tuple:
    """One request straight through Django's WSGI handler, as gunicorn calls it (the test client
    would add its own signals, copies and checks to every request): (status line, body)."""
    environ = {
        "REQUEST_METHOD": method,
        "PATH_INFO": path,
        "QUERY_STRING": "",
        "SERVER_NAME": "testserver",
        "SERVER_PORT": "80",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "127.0.0.1",
        "HTTP_HOST": "testserver",
        "CONTENT_TYPE": "application/json",
        "CONTENT_LENGTH": str(len(body)),
        "wsgi.input": io.BytesIO(body),
        "wsgi.url_scheme": "http",
        "wsgi.errors": sys.stderr,
    }
    if key:
        environ["HTTP_AUTHORIZATION"] = f"Bearer {key}"
    status = []
    response = handler(environ, lambda s, headers, exc_info=None: status.append(s))
    content = b"".join(response)
    response.close()
    return status[0], content
