"""One client's settings, as given to :class:`Client` or :class:`AsyncClient`, and the
options JSON of ``cf_client_open`` they make. A leaf: it imports only the conversions."""
from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import Any, Dict, Optional, Union

from ._convert import DAY_S, encode, flag, int64, milliseconds, readable_file

__all__ = ["ClientConfig"]


@dataclass(frozen=True)
class ClientConfig:
    """The arguments of :class:`Client` (see its docstring for each), unchecked until
    :meth:`options_json` and :meth:`url` read them. None means the library's default: this
    package keeps no copy of those."""

    base_url: Optional[str] = None
    timeout: Optional[float] = 10.0
    retries: int = 2
    cache_path: Union[str, "os.PathLike[str]", None] = None
    offline_fallback: bool = False
    user_agent: Optional[str] = None
    cache_ttl: Optional[float] = None
    cache_max_bytes: Optional[int] = None
    proxy: Optional[str] = None
    connect_timeout: Optional[float] = None
    attempt_timeout: Optional[float] = None
    read_ahead: Optional[int] = None
    max_connections: Optional[int] = None
    otlp_endpoint: Optional[str] = None
    ca_file: Union[str, "os.PathLike[str]", None] = None
    #: Python's own, not the library's: whether OpenTelemetry's current span is the calls' parent.
    otel_context: bool = True

    def options_json(self) -> bytes:
        """The options object of ``cf_client_open``, with only the keys given.

        Raises:
            TypeError, ArgumentError: a bad value (the message names the parameter).
        """
        options: Dict[str, Any] = {"retries": int64(self.retries, "retries"),
                                   "offline_fallback": flag(self.offline_fallback, "offline_fallback")}
        for key, name, seconds in (("deadline_ms", "timeout", self.timeout),
                                   ("connect_timeout_ms", "connect_timeout", self.connect_timeout),
                                   ("timeout_ms", "attempt_timeout", self.attempt_timeout)):
            if seconds is not None:
                options[key] = milliseconds(seconds, name, zero=False, highest=DAY_S)
        if self.cache_path is not None:
            options["cache_path"] = os.fspath(self.cache_path)
        if self.cache_ttl is not None:
            options["cache_ttl_ms"] = milliseconds(self.cache_ttl, "cache_ttl", zero=True, highest=365 * DAY_S)
        if self.cache_max_bytes is not None:
            options["cache_max_bytes"] = int64(self.cache_max_bytes, "cache_max_bytes")
        if self.user_agent is not None:
            options["user_agent"] = str(self.user_agent)
        if self.proxy is not None:
            options["proxy"] = str(self.proxy)
        if self.read_ahead is not None:
            options["read_ahead"] = int64(self.read_ahead, "read_ahead")
        if self.max_connections is not None:
            options["max_connections"] = int64(self.max_connections, "max_connections")
        if self.otlp_endpoint is not None:
            # "" is sent too: it turns export off even when OTEL_EXPORTER_OTLP_ENDPOINT names a collector.
            options["otlp_endpoint"] = encode(self.otlp_endpoint, "otlp_endpoint").decode()
        ca_file = self._ca_file()
        if ca_file is not None:
            options["ca_file"] = ca_file
        return json.dumps(options).encode()

    def _ca_file(self) -> Optional[str]:
        """``ca_file``, else REQUESTS_CA_BUNDLE as requests reads it (the library reads
        CURL_CA_BUNDLE, SSL_CERT_FILE and SSL_CERT_DIR itself); checked here so that the
        message names where the path came from."""
        if self.ca_file is not None:
            return readable_file(self.ca_file, "ca_file", "a PEM file of CA certificates")
        bundle = os.environ.get("REQUESTS_CA_BUNDLE", "")
        return readable_file(bundle, "REQUESTS_CA_BUNDLE", "a PEM file of CA certificates") if bundle else None

    def url(self) -> Optional[bytes]:
        """The base URL as ``cf_client_open`` takes it (NULL: https://catfact.ninja)."""
        return None if self.base_url is None else encode(self.base_url, "base_url")
