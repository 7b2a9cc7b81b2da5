"""An agency's webhook receiver for tests and benchmarks: a real HTTPS server on 127.0.0.1 with
its own certificate authority, that records every request and answers as scripted.

It shares no code with the service: `verify_signature` is written from the spec alone
(HMAC-SHA256, hex, over `timestamp.body` with the endpoint's secret, 300 s tolerance).

As a program (for benchmarks in another process):
    python -m tests.kit.receiver --port 0 --log requests.jsonl [--answers answers.json]
prints one JSON line `{"url": …, "ca_path": …}` and appends each request to the log. With
`--answers`, each request is answered as that file says when the request arrives
(`{"/slow": {"delay": 4.5, "status": 200}}`; a path it does not name gets 200 at once): the
program that started the receiver changes the answers at runtime by replacing the file
(`write_answers`). Without it, every request gets 200 at once.
"""

import argparse
import contextlib
import datetime
import hashlib
import hmac
import ipaddress
import json
import os
import signal
import socket
import ssl
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

HOST = "127.0.0.1"


def verify_signature(secret: str, headers, body: bytes, now=None, tolerance=300) -> bool:
    """What an agency's receiver does with a delivery: recompute the signature and check the
    timestamp is recent."""
    lowered = {name.lower(): value for name, value in headers.items()}
    timestamp = lowered.get("x-service-timestamp", "")
    signature = lowered.get("x-service-signature", "")
    if not timestamp.isdigit():
        return False
    now = time.time() if now is None else now
    if abs(now - int(timestamp)) > tolerance:
        return False
    expected = hmac.new(
        secret.encode(), timestamp.encode() + b"." + body, hashlib.sha256
    ).hexdigest()
    return hmac.compare_digest(expected, signature)


@dataclass
class ReceivedRequest:
    method: str
    path: str
    headers: dict
    body: bytes
    received_at: float  # time.time() when the request had been read
    client_port: int = 0  # the connection it came on: the same port, the same connection


@dataclass
class Answer:
    status: int = 200
    delay: float = 0.0
    headers: dict = field(default_factory=dict)
    body: bytes = b"ok"
    trickle: float = 0.0  # seconds between the body's bytes, sent one at a time


def _certificates(directory: Path) -> tuple[Path, Path, Path]:
    """A CA, and a server certificate it signs for 127.0.0.1 and localhost."""
    now = datetime.datetime.now(datetime.UTC)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "Test webhook receiver CA")])
    ca_cert = (
        x509.CertificateBuilder()
        .subject_name(ca_name)
        .issuer_name(ca_name)
        .public_key(ca_key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=30))
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=True,
                key_cert_sign=True,
                crl_sign=True,
                content_commitment=False,
                key_encipherment=False,
                data_encipherment=False,
                key_agreement=False,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        .add_extension(
            x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key()), critical=False
        )
        .sign(ca_key, hashes.SHA256())
    )
    server_key = ec.generate_private_key(ec.SECP256R1())
    server_cert = (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")]))
        .issuer_name(ca_name)
        .public_key(server_key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=30))
        .add_extension(
            x509.SubjectAlternativeName(
                [x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address(HOST))]
            ),
            critical=False,
        )
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(
            x509.ExtendedKeyUsage([x509.oid.ExtendedKeyUsageOID.SERVER_AUTH]), critical=False
        )
        .add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()),
            critical=False,
        )
        .sign(ca_key, hashes.SHA256())
    )
    ca_path, cert_path, key_path = (directory / n for n in ("ca.pem", "cert.pem", "key.pem"))
    ca_path.write_bytes(ca_cert.public_bytes(serialization.Encoding.PEM))
    cert_path.write_bytes(server_cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(
        server_key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return ca_path, cert_path, key_path


def write_answers(path: Path, answers: dict[str, dict]) -> None:
    """Replace a receiver's answers file (`--answers`) at once: the receiver reads either the
    old file or the new one, never half of one. `answers` maps a path to `Answer` fields
    (`{"/slow": {"delay": 4.5}}`)."""
    path = Path(path)
    partial = path.with_name(path.name + ".partial")
    partial.write_text(json.dumps(answers))
    os.replace(partial, path)


def _answer_from_file(path: Path, request_path: str) -> Answer | None:
    """The answer the file gives `request_path`, None if it names no such path (or does not
    exist yet)."""
    try:
        answers = json.loads(path.read_text())
    except FileNotFoundError:
        return None
    fields = answers.get(request_path)
    if fields is None:
        return None
    return Answer(status=int(fields.get("status", 200)), delay=float(fields.get("delay", 0.0)))


class Receiver:
    """Start with `start()`; `url` is https://127.0.0.1:<port>/hooks. `answers_path`: a file
    read at each request (`write_answers`), whose answers win over `respond()`'s."""

    def __init__(
        self, port: int = 0, log_path: Path | None = None, answers_path: Path | None = None
    ):
        self._directory = tempfile.TemporaryDirectory(prefix="webhook-receiver-")
        self.ca_path, cert_path, key_path = _certificates(Path(self._directory.name))
        self.ca_path = str(self.ca_path)
        self._lock = threading.Lock()
        self._requests: list[ReceivedRequest] = []
        self._answers: dict[str, Answer] = {}
        self._to_drop: dict[str, int] = {}  # path -> requests to read and answer by closing
        self._connections: set = set()  # the sockets of open (kept-alive) connections
        self._log = open(log_path, "a") if log_path else None  # noqa: SIM115 - closed in stop()
        self._answers_path = Path(answers_path) if answers_path else None
        self._server = ThreadingHTTPServer((HOST, port), self._handler_class())
        self._server.daemon_threads = True
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(cert_path, key_path)
        self._server.socket = context.wrap_socket(self._server.socket, server_side=True)
        self.port = self._server.server_address[1]
        self.url = self.url_for("/hooks")
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def url_for(self, path: str) -> str:
        return f"https://{HOST}:{self.port}{path}"

    def start(self) -> "Receiver":
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        if self._log:
            self._log.close()
        self._directory.cleanup()

    @property
    def requests(self) -> list[ReceivedRequest]:
        with self._lock:
            return list(self._requests)

    def respond(
        self, path: str, *, status=200, delay=0.0, headers=None, body=b"ok", trickle=0.0
    ) -> None:
        with self._lock:
            self._answers[path] = Answer(status, delay, headers or {}, body, trickle)

    def drop_next(self, path: str, count: int = 1) -> None:
        """The next `count` requests to `path` are read, recorded and answered by closing the
        connection, with no status line: a server that closed a kept-alive connection just as
        the request was written, as far as the client can tell."""
        with self._lock:
            self._to_drop[path] = count

    def close_idle_connections(self) -> None:
        """Close every open connection from the server's side (as a server's keep-alive
        timeout does)."""
        with self._lock:
            connections = list(self._connections)
        for connection in connections:
            with contextlib.suppress(OSError):
                connection.shutdown(socket.SHUT_RDWR)

    def connection_ports(self) -> list[int]:
        """The client port of each request received, in order."""
        return [request.client_port for request in self.requests]

    def reset(self) -> None:
        with self._lock:
            self._requests.clear()
            self._answers.clear()
            self._to_drop.clear()

    def _received(self, request: ReceivedRequest) -> Answer | None:
        """The answer to give; None: close the connection without one."""
        with self._lock:
            self._requests.append(request)
            if self._log:
                entry = {
                    "method": request.method,
                    "path": request.path,
                    "headers": request.headers,
                    "body": request.body.decode(),
                    "received_at": request.received_at,
                }
                self._log.write(json.dumps(entry) + "\n")
                self._log.flush()
            if self._to_drop.get(request.path, 0) > 0:
                self._to_drop[request.path] -= 1
                return None
            if self._answers_path:
                from_file = _answer_from_file(self._answers_path, request.path)
                if from_file is not None:
                    return from_file
            return self._answers.get(request.path, Answer())

    def _handler_class(self):
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            # Headers and body leave in separate writes: without TCP_NODELAY, Nagle's algorithm
            # and the client's delayed ACK add ~40 ms to every answer.
            disable_nagle_algorithm = True

            def setup(self):
                super().setup()
                with receiver._lock:
                    receiver._connections.add(self.connection)

            def finish(self):
                with receiver._lock:
                    receiver._connections.discard(self.connection)
                with contextlib.suppress(OSError, ssl.SSLError):
                    super().finish()

            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length)
                answer = receiver._received(
                    ReceivedRequest(
                        method="POST",
                        path=self.path,
                        headers=dict(self.headers.items()),
                        body=body,
                        received_at=time.time(),
                        client_port=self.client_address[1],
                    )
                )
                if answer is None:
                    self.close_connection = True
                    with contextlib.suppress(OSError):
                        self.connection.shutdown(socket.SHUT_RDWR)
                    return
                if answer.delay:
                    time.sleep(answer.delay)
                try:
                    self.send_response(answer.status)
                    for name, value in answer.headers.items():
                        self.send_header(name, value)
                    self.send_header("Content-Length", str(len(answer.body)))
                    self.end_headers()
                    if not answer.trickle:
                        self.wfile.write(answer.body)
                    for byte in answer.body if answer.trickle else b"":
                        self.wfile.write(bytes([byte]))
                        time.sleep(answer.trickle)
                except (ConnectionError, ssl.SSLError):
                    pass  # the client stopped reading (a timeout, an excerpt): as real servers do

            def log_message(self, format, *args):  # quiet
                pass

        return Handler


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--log", type=Path, required=True)
    parser.add_argument(
        "--answers",
        type=Path,
        help="a JSON file of answers by path, read at each request (replace it to change them)",
    )
    arguments = parser.parse_args()
    receiver = Receiver(arguments.port, arguments.log, arguments.answers).start()
    # Stopped by its starter (SIGTERM) or Ctrl-C: its certificates' directory goes with it.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    print(json.dumps({"url": receiver.url, "ca_path": receiver.ca_path}), flush=True)
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        sys.exit(0)
    finally:
        receiver.stop()


if __name__ == "__main__":
    main()
