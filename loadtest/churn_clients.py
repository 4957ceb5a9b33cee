"""The connections loadtest/churn.py opens: each one a new TCP connection that carries one request (or one stream
session) and is then closed, written on asyncio streams with the python3 standard library only (HTTP/1.1 and a
minimal RFC 6455 client by hand, no permessage-deflate).

Every kind knows the answer it must get; run() returns "ok" or the reason it did not get it, so the soak can count
unexpected answers per kind. A connection the service closes before any answer (what it does at accept when its
connection cap is full) is reported as CLOSED_AT_ACCEPT.

The mix, per hundred connections (KINDS):
  25 orders with a key, 201;  15 orders without a key, 401;  15 malformed bodies with a key, 400;
  15 GETs, 200 (/health, the BTCUSD book without a key, the key's own orders);
  HTTP connections are closed by the service (Connection: close) or by the client after the answer, at random.
  10 stream sessions that subscribe to a book and read its snapshot, then close with a close frame;
   5 stream sessions that log in to the private orders channel with a key, then close with a close frame;
   5 stream sessions that subscribe to nothing and close with a close frame;
   5 that subscribe and then drop the connection without a close frame (FIN);
   5 that subscribe and then reset it (RST, SO_LINGER 0).
Orders are LIMIT at 50000.00 on BTCUSD, buys and sells alike, half GTC and half IOC, so they trade with each other
and the book stays near empty: the soak's heap is the service's, not a growing book's."""
import asyncio, base64, hashlib, itertools, os, random, socket, struct

CLOSED_AT_ACCEPT = "closed before any answer"
TIMEOUT = 10.0
_GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
_sequence = itertools.count(1)


class Unexpected(Exception):
    """What a connection got instead of what its kind expects; its message is the reason counted."""


class Target:
    """Where the connections go and with which secrets: host, port, a list of trade-key secrets, and a run id that
    makes every clientOrderId unique."""

    def __init__(self, host, port, secrets, run_id):
        self.host, self.port, self.secrets, self.run_id = host, port, secrets, run_id

    def secret(self):
        return random.choice(self.secrets)

    def order(self):
        return ('{"clientOrderId":"churn-%s-%d","symbol":"BTCUSD","side":"%s","type":"LIMIT","timeInForce":"%s",'
                '"price":"50000.00","quantity":"0.0010"}'
                % (self.run_id, next(_sequence), random.choice(("BUY", "SELL")), random.choice(("GTC", "IOC"))))


# Against a loopback service the connections come from 16 loopback addresses, as a venue's clients come from many: the
# per-address bounds (ORDERS_HTTP_MAX_CONNECTIONS_PER_ADDRESS, 1,000) are not what this soak measures, and on a
# loaded machine one address can have more than 1,000 short connections in flight. HostileConnectionsIT tests them.
LOOPBACK_SOURCES = 16


def _source(target):
    if target.host.startswith("127."):
        return ("127.0.0.%d" % random.randint(1, LOOPBACK_SOURCES), 0)
    return None


async def _connect(target):
    try:
        return await asyncio.wait_for(asyncio.open_connection(target.host, target.port, local_addr=_source(target)),
                                      TIMEOUT)
    except (OSError, asyncio.TimeoutError) as e:
        raise Unexpected(f"connect failed: {type(e).__name__}") from e


async def _head(reader):
    """Reads a response's status line and headers; EOF or a reset before them is CLOSED_AT_ACCEPT."""
    try:
        head = await reader.readuntil(b"\r\n\r\n")
    except (asyncio.IncompleteReadError, ConnectionError) as e:
        raise Unexpected(CLOSED_AT_ACCEPT) from e
    lines = head.decode("latin-1").split("\r\n")
    headers = {}
    for line in lines[1:]:
        if ":" in line:
            name, value = line.split(":", 1)
            headers[name.strip().lower()] = value.strip()
    return int(lines[0].split()[1]), headers


async def _body(reader, headers):
    if "content-length" in headers:
        await reader.readexactly(int(headers["content-length"]))
    elif headers.get("transfer-encoding", "").lower() == "chunked":
        while True:
            size = int((await reader.readline()).split(b";")[0], 16)
            await reader.readexactly(size + 2)
            if size == 0:
                return


def _request(method, path, target, secret=None, body=None, close=False, extra=""):
    head = f"{method} {path} HTTP/1.1\r\nHost: {target.host}:{target.port}\r\n"
    if secret:
        head += f"Authorization: Bearer {secret}\r\n"
    if close:
        head += "Connection: close\r\n"
    if body is not None:
        head += f"Content-Type: application/json\r\nContent-Length: {len(body.encode())}\r\n"
    return (head + extra + "\r\n" + (body or "")).encode()


async def _closed_by_service(reader):
    try:
        while await asyncio.wait_for(reader.read(4096), 5):
            pass
    except ConnectionError:
        pass
    except asyncio.TimeoutError as e:
        raise Unexpected("still open 5 s after the answer") from e


async def _http(target, method, path, expected, secret=None, body=None):
    """One request on a connection of its own; the service closes it (Connection: close) or the client does."""
    close = random.random() < 0.5
    reader, writer = await _connect(target)
    try:
        writer.write(_request(method, path, target, secret, body, close))
        await writer.drain()
        status, headers = await _head(reader)
        await _body(reader, headers)
        if status != expected:
            raise Unexpected(f"{status} (expected {expected})")
        if close:
            await _closed_by_service(reader)
    except (asyncio.IncompleteReadError, ConnectionError) as e:
        raise Unexpected(f"connection lost mid-answer: {type(e).__name__}") from e
    finally:
        writer.close()


async def order(target):
    await _http(target, "POST", "/api/v1/orders", 201, target.secret(), target.order())


async def keyless_order(target):
    await _http(target, "POST", "/api/v1/orders", 401, None, target.order())


async def malformed_order(target):
    body = random.choice(('{"clientOrderId":"x","symbol":"BTCUSD","side":"BUY",', "not json", '["BTCUSD"]'))
    await _http(target, "POST", "/api/v1/orders", 400, target.secret(), body)


async def get(target):
    path, secret = random.choice((("/health", None), ("/api/v1/orderbook/BTCUSD?depth=10", None),
                                  ("/api/v1/orders?limit=1", target.secret())))
    await _http(target, "GET", path, 200, secret)


def _frame(opcode, payload):
    mask = os.urandom(4)
    n = len(payload)
    head = bytes([0x80 | opcode]) + (bytes([0x80 | n]) if n < 126 else bytes([0x80 | 126]) + struct.pack("!H", n))
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


async def _read_frame(reader):
    b0, b1 = await reader.readexactly(2)
    n = b1 & 0x7F
    if n == 126:
        n = struct.unpack("!H", await reader.readexactly(2))[0]
    elif n == 127:
        n = struct.unpack("!Q", await reader.readexactly(8))[0]
    if b1 & 0x80:
        await reader.readexactly(4)
    return b0 & 0x0F, await reader.readexactly(n)


async def _stream(target, subscribe, ending):
    """A stream session: upgrade (101 expected), optionally one subscribe answered by a text frame, then ending:
    "close" (close frame 1000, the service's close frame and its FIN expected), "drop" (FIN without a close frame)
    or "reset" (RST)."""
    reader, writer = await _connect(target)
    try:
        key = base64.b64encode(os.urandom(16)).decode()
        writer.write(_request("GET", "/api/v1/stream", target, extra=(
            f"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n")))
        await writer.drain()
        status, headers = await _head(reader)
        if status != 101:
            await _body(reader, headers)
            raise Unexpected(f"upgrade answered {status} (expected 101)")
        if headers.get("sec-websocket-accept") != base64.b64encode(hashlib.sha1(key.encode() + _GUID).digest()).decode():
            raise Unexpected("upgrade with a wrong Sec-WebSocket-Accept")
        if subscribe:
            writer.write(_frame(0x1, subscribe(target).encode()))
            await writer.drain()
            while True:
                opcode, payload = await _read_frame(reader)
                if opcode == 0x1 and b'"type":"error"' in payload:
                    raise Unexpected("subscribe refused: " + payload[:120].decode(errors="replace"))
                if opcode == 0x1:
                    break
        if ending == "close":
            writer.write(_frame(0x8, struct.pack("!H", 1000)))
            await writer.drain()
            while (await _read_frame(reader))[0] != 0x8:
                pass
            await _closed_by_service(reader)
        elif ending == "reset":
            writer.get_extra_info("socket").setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            writer.transport.abort()
    except (asyncio.IncompleteReadError, ConnectionError) as e:
        raise Unexpected(f"stream connection lost: {type(e).__name__}") from e
    finally:
        writer.close()


def _book(_):
    return '{"op":"subscribe","channel":"book","symbol":"BTCUSD"}'


def _private(target):
    return '{"op":"subscribe","channel":"orders","apiKey":"%s"}' % target.secret()


async def stream_book_closed(target):
    await _stream(target, _book, "close")


async def stream_private_closed(target):
    await _stream(target, _private, "close")


async def stream_idle_closed(target):
    await _stream(target, None, "close")


async def stream_dropped(target):
    await _stream(target, _book, "drop")


async def stream_reset(target):
    await _stream(target, _book, "reset")


KINDS = [  # (name in the report, weight, coroutine)
    ("order with a key, 201", 25, order),
    ("order without a key, 401", 15, keyless_order),
    ("malformed body with a key, 400", 15, malformed_order),
    ("GET, 200", 15, get),
    ("stream: book, close frame", 10, stream_book_closed),
    ("stream: private orders, close frame", 5, stream_private_closed),
    ("stream: no subscribe, close frame", 5, stream_idle_closed),
    ("stream: book, dropped (FIN)", 5, stream_dropped),
    ("stream: book, reset (RST)", 5, stream_reset),
]


async def run(kind, target):
    """Opens one connection of kind (a KINDS entry) and returns "ok" or the reason it went otherwise."""
    try:
        await asyncio.wait_for(kind[2](target), TIMEOUT * 2)
        return "ok"
    except Unexpected as e:
        return str(e)
    except asyncio.TimeoutError:
        return f"no answer in {TIMEOUT * 2:.0f} s"
