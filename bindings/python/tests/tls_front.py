"""https in front of a real catfacts-mock, with a CA made for the test: openssl makes the CA
and a server certificate it signs (for 127.0.0.1 and localhost), and a TLS terminator on
loopback passes each decrypted connection to the mock. Also a server that sends a response
with more headers than libcurl accepts. Used by the Python suite and the shell's, and run as a
program by the C suite's tls_test (``python3 tls_front.py MOCK_URL FOLDER``: see main)."""
from __future__ import annotations

import argparse
import signal
import socket
import ssl
import subprocess
import sys
import threading
from pathlib import Path
from typing import Callable, Dict, Iterator, List, Tuple


class Authority:
    """A CA (``ca.pem``) and a server certificate it signed (``server.pem``, ``server.key``),
    and a second CA that signed nothing here (``other-ca.pem``), in ``folder``."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.ca = folder / "ca.pem"
        self.other_ca = folder / "other-ca.pem"
        self.certificate = folder / "server.pem"
        self.key = folder / "server.key"
        self._make()

    def _openssl(self, *args: str) -> None:
        subprocess.run(["openssl", *args], cwd=self.folder, check=True, capture_output=True, timeout=60)

    def _make(self) -> None:
        for name in ("ca", "other-ca"):
            self._openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", f"/CN=CatFacts test {name}",
                          "-keyout", f"{name}.key", "-out", f"{name}.pem",
                          "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign")
        self._openssl("req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=127.0.0.1",
                      "-keyout", "server.key", "-out", "server.csr")
        (self.folder / "server.ext").write_text("subjectAltName=IP:127.0.0.1,DNS:localhost\n"
                                                "extendedKeyUsage=serverAuth\nbasicConstraints=CA:FALSE\n")
        self._openssl("x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
                      "-days", "2", "-out", "server.pem", "-extfile", "server.ext")

    def hashed_folder(self) -> Path:
        """A folder holding the CA as ``<hash>.0``, as ``c_rehash`` makes it (for SSL_CERT_DIR)."""
        folder = self.folder / "certs"
        folder.mkdir(exist_ok=True)
        digest = subprocess.run(["openssl", "x509", "-hash", "-noout", "-in", str(self.ca)], check=True,
                                capture_output=True, text=True, timeout=60).stdout.strip()
        (folder / f"{digest}.0").write_bytes(self.ca.read_bytes())
        return folder


class TLSFront:
    """Accepts TLS on a free loopback port and pipes each connection, decrypted, to
    ``backend`` (host, port); ``url`` is its https address. A handshake the client gives up
    on (it does not trust the certificate) just ends that connection."""

    def __init__(self, authority: Authority, backend: Tuple[str, int]) -> None:
        self.context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        self.context.load_cert_chain(str(authority.certificate), str(authority.key))
        self.backend = backend
        self.listener = socket.socket()
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(16)
        self.url = f"https://127.0.0.1:{self.listener.getsockname()[1]}"
        self.handshakes = 0
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                raw, _ = self.listener.accept()
            except OSError:
                return
            thread = threading.Thread(target=self._serve, args=(raw,), daemon=True)
            thread.start()

    def _serve(self, raw: socket.socket) -> None:
        try:
            tls = self.context.wrap_socket(raw, server_side=True)
        except (ssl.SSLError, OSError):
            raw.close()
            return
        self.handshakes += 1
        try:
            upstream = socket.create_connection(self.backend)
        except OSError:
            tls.close()
            return
        done = threading.Event()

        def pump(source: socket.socket, sink: socket.socket) -> None:
            try:
                while True:
                    data = source.recv(65536)
                    if not data:
                        break
                    sink.sendall(data)
            except OSError:
                pass
            finally:
                done.set()

        threading.Thread(target=pump, args=(upstream, tls), daemon=True).start()
        pump(tls, upstream)
        done.wait()
        for end in (tls, upstream):
            try:
                end.close()
            except OSError:
                pass

    def stop(self) -> None:
        self.listener.close()


def serve_once_each(reply: Callable[[socket.socket], None]) -> Iterator[str]:
    """A plain HTTP server on loopback answering every connection with ``reply``; yields its URL."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)

    def loop() -> None:
        while True:
            try:
                connection, _ = server.accept()
            except OSError:
                return
            with connection:
                try:
                    connection.recv(65536)
                    reply(connection)
                except OSError:
                    pass

    threading.Thread(target=loop, daemon=True).start()
    yield f"http://127.0.0.1:{server.getsockname()[1]}"
    server.close()


def many_headers(total_bytes: int = 400_000, line_bytes: int = 1000) -> bytes:
    """A response whose headers come to ``total_bytes`` in lines of ``line_bytes``: each line
    under libcurl's 100 kB a line, all of them over its limit in all."""
    lines = [b"HTTP/1.1 200 OK"]
    for n in range(total_bytes // line_bytes):
        lines.append(b"X-Filler-%06d: " % n + b"a" * (line_bytes - 18))
    return b"\r\n".join(lines) + b"\r\nContent-Length: 2\r\n\r\n{}"


def free_of(environment: Dict[str, str], *names: str) -> Dict[str, str]:
    """``environment`` without the CA variables (and ``names``), so that only a test's own choice counts."""
    unset = {"SSL_CERT_FILE", "SSL_CERT_DIR", "CURL_CA_BUNDLE", "REQUESTS_CA_BUNDLE", *names}
    return {key: value for key, value in environment.items() if key not in unset}


def host_port(url: str) -> Tuple[str, int]:
    """("127.0.0.1", 8106) of ``http://127.0.0.1:8106``."""
    address = url.split("://", 1)[1].split("/", 1)[0]
    host, _, port = address.rpartition(":")
    return host, int(port)


def main(arguments: List[str]) -> int:
    """Makes the CA files in FOLDER, starts a front before MOCK_URL and prints, one a line:
    ``listening on https://127.0.0.1:PORT``, ``ca PATH``, ``other-ca PATH`` and ``ca-dir PATH``
    (the CA hashed for SSL_CERT_DIR); then serves until SIGTERM or SIGINT. A caller waits for
    those lines, never for a time; it removes FOLDER."""
    parser = argparse.ArgumentParser(prog="tls_front.py", description="https before a catfacts-mock, with a CA made here")
    parser.add_argument("mock_url", help="the mock's base URL, http://127.0.0.1:PORT")
    parser.add_argument("folder", type=Path, help="an existing folder for the CA's files, which the caller removes")
    options = parser.parse_args(arguments)
    authority = Authority(options.folder)
    # Blocked before the front's threads start (they inherit the mask) and then taken with
    # sigwait, which also returns one sent before it was called. A handler and
    # signal.pause() hung (the C suite's tls_test waited on this process for its whole
    # timeout): a SIGTERM that came just before pause(), or that the kernel gave to one of the
    # front's threads, ran the handler's C part and never woke the main thread.
    stop_signals = {signal.SIGTERM, signal.SIGINT}
    signal.pthread_sigmask(signal.SIG_BLOCK, stop_signals)
    front = TLSFront(authority, host_port(options.mock_url))
    try:
        print(f"listening on {front.url}\nca {authority.ca}\nother-ca {authority.other_ca}\n"
              f"ca-dir {authority.hashed_folder()}", flush=True)
        signal.sigwait(stop_signals)
    finally:
        front.stop()
    return 0


__all__ = ["Authority", "TLSFront", "serve_once_each", "many_headers", "free_of", "host_port"]


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
