"""The project's nginx configuration (deploy/nginx.conf) in front of a real ``gammon serve``:
pages and a game's WebSocket through the proxy, the client's address reaching the server
(and not a forged one), and the per-address limits answering 429.

The test renders deploy/nginx.conf itself, as the nginx image does at start (envsubst of
the variables that are set), and includes it in a minimal main configuration of its own
(temporary paths, no daemon), as the image's /etc/nginx/nginx.conf includes conf.d/.
Needs Debian's ``nginx`` (.ci/run installs it); skipped without it.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

pytest.importorskip("starlette", reason="the server tests need the server extra")

from serverkit import TLS, Player, RunningServer, ServeProcess, play_move, start_pair

ROOT = Path(__file__).resolve().parents[2]
TEMPLATE = ROOT / "deploy" / "nginx.conf"
NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if os.path.exists("/usr/sbin/nginx") else None)

pytestmark = pytest.mark.skipif(
    NGINX is None, reason="nginx is not installed (apt-get install nginx; CI's .ci/run does)"
)

#: The addresses the test's clients connect from (all of 127/8 is this machine).
CLIENT = "127.0.0.3"
FLOODER = "127.0.0.4"
POSTER = "127.0.0.5"


def render(template: str, values: dict[str, str]) -> str:
    """``template`` with ``${NAME}`` replaced for each name of ``values``, and nothing else
    touched (envsubst given the list of names, as the nginx image's entrypoint runs it);
    through the real ``envsubst`` when it is installed."""
    names = " ".join(f"${{{name}}}" for name in values)
    envsubst = shutil.which("envsubst")
    if envsubst is not None:
        done = subprocess.run(
            [envsubst, names],
            input=template,
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, **values},
        )
        return done.stdout
    return re.sub(
        r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}",
        lambda m: values.get(m.group(1), m.group(0)),
        template,
    )


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Proxy:
    url: str
    gammon: ServeProcess
    error_log: Path

    def server(self) -> RunningServer:
        """A handle for :class:`Player`: the site as seen through nginx."""
        handle = self.gammon.server()
        handle.url = self.url
        return handle

    def client(self, address: str) -> httpx.Client:
        """An HTTP client whose connections come from ``address``."""
        return httpx.Client(
            verify=TLS,
            base_url=self.url,
            transport=httpx.HTTPTransport(verify=TLS, local_address=address),
            timeout=20,
        )

    def logged(self, needle: str, timeout: float = 5, needle_from: str = "") -> str:
        """The server's output line holding ``needle`` (and ``needle_from``): its access log."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for line in list(self.gammon.output):
                if needle in line and needle_from in line:
                    return line
            time.sleep(0.05)
        raise AssertionError(
            f"{needle!r} not in the server's output:\n" + "".join(self.gammon.output[-20:])
        )


@pytest.fixture(scope="module")
def proxy(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Proxy]:
    assert NGINX is not None
    tmp = tmp_path_factory.mktemp("nginx")
    gammon = ServeProcess(
        "--trust-proxy",
        "127.0.0.1",
        "--access-log",
        "true",
        "--bot-workers",
        "0",
        env={"GAMMON_DATABASE_URL": f"sqlite:///{tmp / 'gammon.db'}"},
    )
    port = free_port()
    upstream = gammon.url.removeprefix("http://")
    site = render(
        TEMPLATE.read_text(),
        {"GAMMON_LISTEN": f"127.0.0.1:{port}", "GAMMON_UPSTREAM": f"server {upstream};"},
    )
    assert "${" not in site, "a variable of the template was left unset"
    (tmp / "gammon.conf").write_text(site)
    for sub in ("body", "proxy", "fastcgi", "uwsgi", "scgi"):
        (tmp / sub).mkdir()
    (tmp / "nginx.conf").write_text(
        f"""{"user root;" if os.geteuid() == 0 else ""}
worker_processes 1;
pid {tmp}/nginx.pid;
error_log {tmp}/error.log warn;
events {{ worker_connections 512; }}
http {{
    access_log off;
    client_body_temp_path {tmp}/body;
    proxy_temp_path {tmp}/proxy;
    fastcgi_temp_path {tmp}/fastcgi;
    uwsgi_temp_path {tmp}/uwsgi;
    scgi_temp_path {tmp}/scgi;
    include {tmp}/gammon.conf;
}}
"""
    )
    command = [NGINX, "-p", str(tmp), "-e", str(tmp / "error.log"), "-c", str(tmp / "nginx.conf")]
    checked = subprocess.run([*command, "-t"], check=False, capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr
    nginx = subprocess.Popen([*command, "-g", "daemon off;"], stderr=subprocess.PIPE, text=True)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 15
        while True:
            try:
                if httpx.get(f"{url}/healthz", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert nginx.poll() is None, nginx.stderr.read() if nginx.stderr else ""
            assert time.monotonic() < deadline, "nginx did not answer"
            time.sleep(0.1)
        yield Proxy(url, gammon, tmp / "error.log")
    finally:
        nginx.terminate()
        nginx.wait(timeout=10)
        if nginx.stderr is not None:
            nginx.stderr.close()
        gammon.stop()


def test_pages_come_through_the_proxy(proxy: Proxy) -> None:
    with proxy.client(CLIENT) as web:
        lobby = web.get("/")
        assert lobby.status_code == 200
        assert "text/html" in lobby.headers["content-type"]
        assert lobby.headers["x-frame-options"] == "DENY"  # gammon's own headers come along
        assert web.get("/healthz").json()["ok"] is True
        assert web.get("/readyz").json()["ready"] is True
        # the static files are compressed on the way
        static = ROOT / "src/gammon/server/static"
        biggest = max(static.rglob("*.js"), key=lambda p: p.stat().st_size)
        path = "/static/" + biggest.relative_to(static).as_posix()
        compressed = web.get(path, headers={"Accept-Encoding": "gzip"})
        assert compressed.status_code == 200
        assert compressed.headers.get("content-encoding") == "gzip"
        # each process's metrics are not reachable through the balancer
        assert web.get("/metrics").status_code == 404


def test_a_match_is_played_over_a_websocket_through_the_proxy(proxy: Proxy) -> None:
    made: list[Player] = []

    def make() -> Player:
        made.append(Player(proxy.server()).guest())
        return made[-1]

    try:
        pair = start_pair(make, match_length=3)
        ack = play_move(pair)
        assert ack["type"] == "ack"
        # a browser's Origin (the address it sees: the proxy's) is accepted: Host passes on
        cookie = "; ".join(f"{k}={v}" for k, v in made[0].http.cookies.items())
        from websockets.sync.client import connect

        ws_url = proxy.url.replace("http", "ws") + f"/ws/table/{pair.table}"
        with connect(
            ws_url,
            additional_headers={"Cookie": cookie, "Origin": proxy.url},
            open_timeout=10,
            source_address=(CLIENT, 0),
        ) as conn:
            conn.send('{"type": "hello", "protocol": 1}')
            assert '"welcome"' in str(conn.recv(timeout=10))
        # the socket's client address is the browser's, not the proxy's
        line = proxy.logged(f'"WebSocket /ws/table/{pair.table}" [accepted]', needle_from=CLIENT)
        assert CLIENT in line, line
    finally:
        for player in made:
            player.close()


def test_the_client_address_reaches_the_server_and_a_forged_one_does_not(proxy: Proxy) -> None:
    with proxy.client(CLIENT) as web:
        r = web.get("/healthz?probe=through", headers={"X-Forwarded-For": "203.0.113.9"})
        assert r.status_code == 200
    line = proxy.logged("/healthz?probe=through")
    assert CLIENT in line and "203.0.113.9" not in line, line
    # straight to gammon from an address it does not trust: the header is ignored
    with httpx.Client(
        verify=TLS,
        base_url=proxy.gammon.url,
        transport=httpx.HTTPTransport(verify=TLS, local_address=CLIENT),
    ) as direct:
        direct.get("/healthz?probe=direct", headers={"X-Forwarded-For": "203.0.113.9"})
    line = proxy.logged("/healthz?probe=direct")
    assert CLIENT in line and "203.0.113.9" not in line, line


def test_past_the_burst_the_proxy_answers_429(proxy: Proxy) -> None:
    with proxy.client(FLOODER) as web:
        codes = [web.get("/healthz").status_code for _ in range(300)]
    assert codes[0] == 200
    assert codes.count(429) > 0, codes
    assert set(codes) <= {200, 429}
    # another address is not held back
    with proxy.client(CLIENT) as web:
        assert web.get("/healthz").status_code == 200
    # POSTs have a stricter line of their own (gammon itself refuses these: no CSRF token)
    with proxy.client(POSTER) as web:
        posts = [web.post("/signout").status_code for _ in range(40)]
        assert posts.count(429) >= 10, posts
        assert web.get("/healthz").status_code == 200  # GETs still pass
