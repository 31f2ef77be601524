"""A small keep-alive HTTP/1.1 server: the demo target when nginx is not installed.

Run as `python -m tui_bench.demo.py_server --port N`. It serves the same paths as the demo
nginx (see content.py) and stops cleanly on SIGTERM, SIGINT or SIGQUIT.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import signal
import sys
from collections.abc import Sequence
from http import HTTPStatus

from tui_bench.demo.content import STATUS_PATHS, bodies

_BODIES = bodies()
_MAX_BODY = 1024 * 1024


HOST = "127.0.0.1"  # a demo target is never reachable from other machines


async def serve(port: int, stop: asyncio.Event) -> None:
    server = await asyncio.start_server(_handle, HOST, port)
    async with server:
        await stop.wait()


async def _handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    try:
        while await _answer_one(reader, writer):
            pass
    except (ConnectionError, asyncio.IncompleteReadError, asyncio.LimitOverrunError):
        pass
    finally:
        writer.close()
        with contextlib.suppress(ConnectionError):
            await writer.wait_closed()


async def _answer_one(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> bool:
    """Answer one request; True when the connection stays open for the next one."""
    request_line = await reader.readline()
    if not request_line:
        return False
    parts = request_line.decode("latin-1").split()
    headers = await _read_headers(reader)
    if len(parts) != 3 or not parts[2].startswith("HTTP/1."):
        await _respond(writer, 400, b"bad request\n", keep_alive=False, version="HTTP/1.1")
        return False
    method, target, version = parts
    length = headers.get("content-length", "0")
    if "transfer-encoding" in headers or not length.isdigit() or int(length) > _MAX_BODY:
        await _respond(writer, 400, b"unsupported body\n", keep_alive=False, version=version)
        return False
    await reader.readexactly(int(length))
    connection = headers.get("connection", "").lower()
    # HTTP/1.1 keeps the connection by default; HTTP/1.0 (ab) only when it asks to.
    keep_alive = "close" not in connection and (version != "HTTP/1.0" or "keep-alive" in connection)
    path = target.split("?", 1)[0]
    status = STATUS_PATHS.get(path, 200 if path in _BODIES else 404)
    body = _BODIES.get(path, f"{status} {HTTPStatus(status).phrase}\n".encode())
    await _respond(writer, status, body, keep_alive, version, send_body=method != "HEAD")
    return keep_alive


async def _read_headers(reader: asyncio.StreamReader) -> dict[str, str]:
    headers: dict[str, str] = {}
    while (line := await reader.readline()) not in (b"\r\n", b"\n", b""):
        name, _, value = line.decode("latin-1").partition(":")
        headers[name.strip().lower()] = value.strip()
    return headers


async def _respond(
    writer: asyncio.StreamWriter,
    status: int,
    body: bytes,
    keep_alive: bool,
    version: str,
    send_body: bool = True,
) -> None:
    head = (
        f"{version} {status} {HTTPStatus(status).phrase}\r\n"
        f"Content-Type: text/plain\r\n"
        f"Content-Length: {len(body)}\r\n"
        f"Connection: {'keep-alive' if keep_alive else 'close'}\r\n\r\n"
    )
    writer.write(head.encode("latin-1") + (body if send_body else b""))
    await writer.drain()


async def _main(port: int) -> None:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGQUIT):
        loop.add_signal_handler(sig, stop.set)
    await serve(port, stop)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tui_bench.demo.py_server")
    parser.add_argument("--port", type=int, required=True)
    args = parser.parse_args(argv)
    try:
        asyncio.run(_main(args.port))
    except OSError as exc:
        print(f"py_server: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
