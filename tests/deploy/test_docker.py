"""The container files: the Dockerfile and compose.yaml checked as text (always), the
compose file checked by ``docker compose config`` where the compose plugin is installed,
and the whole site built and started with ``docker compose up --build`` where a Docker
daemon answers (skipped otherwise, with the reason)."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import time
import tomllib
from pathlib import Path

import httpx
import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCKERFILE = ROOT / "Dockerfile"
COMPOSE = ROOT / "compose.yaml"
NGINX_CONF = ROOT / "deploy" / "nginx.conf"


def instructions() -> list[tuple[str, str]]:
    """The Dockerfile's instructions (keyword, arguments), continuation lines joined."""
    joined = re.sub(r"\\\n", " ", DOCKERFILE.read_text())
    found = []
    for line in joined.splitlines():
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        keyword, _, rest = text.partition(" ")
        found.append((keyword.upper(), rest.strip()))
    return found


def ignored(path: str) -> bool:
    """Whether .dockerignore leaves ``path`` out of the build context (its last matching
    rule wins; ``*`` and ``dir/`` patterns, as the file uses them)."""
    result = False
    for raw in (ROOT / ".dockerignore").read_text().splitlines():
        rule = raw.strip()
        if not rule or rule.startswith("#"):
            continue
        negate = rule.startswith("!")
        pattern = rule.lstrip("!").rstrip("/").removeprefix("**/")
        regex = re.escape(pattern).replace(r"\*", "[^/]*")
        if re.fullmatch(regex, path) or re.fullmatch(regex, path.rsplit("/", maxsplit=1)[-1]):
            result = not negate
    return result


def test_the_dockerfile_builds_a_slim_non_root_image_with_a_health_check() -> None:
    steps = instructions()
    bases = [args.split()[0] for keyword, args in steps if keyword == "FROM"]
    assert bases and all(base == "python:3.11-slim" for base in bases), bases
    users = [args for keyword, args in steps if keyword == "USER"]
    assert users and users[-1] not in ("root", "0"), "the site must not run as root"
    health = [args for keyword, args in steps if keyword == "HEALTHCHECK"]
    assert len(health) == 1 and "/healthz" in health[0]
    entry = [args for keyword, args in steps if keyword in ("ENTRYPOINT", "CMD")]
    assert entry == ['["gammon"]', '["serve"]']
    # every file copied from the build context is in the repository and in the context
    for keyword, args in steps:
        if keyword != "COPY" or args.startswith("--from="):
            continue
        *sources, _target = shlex.split(args)
        for source in sources:
            assert (ROOT / source).exists(), f"COPY {source}: not in the repository"
            assert not ignored(source.rstrip("/")), f"COPY {source}: left out by .dockerignore"
    # the extras it installs are the project's
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"
    ]
    (arg,) = [args for keyword, args in steps if keyword == "ARG" and args.startswith("EXTRAS=")]
    assert set(arg.removeprefix("EXTRAS=").split(",")) <= set(extras)
    assert {"server", "postgres"} <= set(arg.removeprefix("EXTRAS=").split(","))
    env = " ".join(args for keyword, args in steps if keyword == "ENV")
    assert "GAMMON_HOST=0.0.0.0" in env  # reachable from outside the container
    assert ignored("tests") and ignored(".venv") and ignored("node_modules")


def _service(text: str, name: str) -> str:
    """The lines of one service of compose.yaml (its block under ``services:``)."""
    match = re.search(rf"^  {name}:\n((?:    .*\n|\s*\n)+)", text, re.MULTILINE)
    assert match is not None, f"no service {name} in compose.yaml"
    return match.group(1)


def test_the_compose_file_wires_the_site_postgres_redis_and_nginx() -> None:
    text = COMPOSE.read_text()
    assert "\t" not in text
    assert "image: postgres:15" in _service(text, "postgres")
    assert "pgdata:/var/lib/postgresql/data" in _service(text, "postgres")
    assert "image: redis:7" in _service(text, "redis")
    site = _service(text, "site")
    assert "build: ." in site
    assert re.search(r"replicas: [2-9]", site)
    assert "GAMMON_DATABASE_URL: postgresql://" in site and "@postgres:5432/" in site
    assert "GAMMON_REDIS_URL: redis://redis:6379/" in site
    nginx = _service(text, "nginx")
    assert "./deploy/nginx.conf:/etc/nginx/templates/default.conf.template:ro" in nginx
    # the site trusts exactly nginx's address for X-Forwarded-For
    (trusted,) = re.findall(r"GAMMON_TRUST_PROXY: (\S+)", site)
    (fixed,) = re.findall(r"ipv4_address: (\S+)", nginx)
    assert trusted == fixed
    # every variable of the nginx template is set for nginx
    for variable in set(re.findall(r"\$\{(GAMMON_[A-Z_]+)\}", NGINX_CONF.read_text())):
        assert re.search(rf"^      {variable}: \S", nginx, re.MULTILINE), variable
    assert "server site:8000;" in nginx


def _works(*command: str) -> tuple[bool, str]:
    if shutil.which(command[0]) is None:
        return False, f"`{command[0]}` is not installed"
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return False, str(exc)
    output = (done.stderr or done.stdout).strip().splitlines()
    return done.returncode == 0, output[0] if output else f"exit status {done.returncode}"


def test_docker_compose_accepts_the_compose_file() -> None:
    ok, why = _works("docker", "compose", "version")
    if not ok:
        pytest.skip(f"no docker compose: `docker compose version` failed: {why}")
    done = subprocess.run(
        ["docker", "compose", "-f", str(COMPOSE), "config", "--quiet"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 0, done.stderr


def test_the_site_starts_with_one_command() -> None:
    ok, why = _works("docker", "info")
    if not ok:
        pytest.skip(f"no Docker daemon: `docker info` failed: {why}")
    ok, why = _works("docker", "compose", "version")
    if not ok:
        pytest.skip(f"no docker compose: `docker compose version` failed: {why}")
    port = os.environ.get("GAMMON_TEST_DOCKER_PORT", "18080")
    env = {**os.environ, "GAMMON_HTTP_PORT": port, "COMPOSE_PROJECT_NAME": "gammon-test"}
    compose = ["docker", "compose", "-f", str(COMPOSE)]
    try:
        subprocess.run(
            [*compose, "up", "--build", "-d"], cwd=ROOT, env=env, check=True, timeout=1200
        )
        deadline = time.monotonic() + 180
        while True:
            try:
                if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=3).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, "the site did not answer through nginx"
            time.sleep(1)
        assert httpx.get(f"http://127.0.0.1:{port}/readyz", timeout=10).json()["ready"]
        lobby = httpx.get(f"http://127.0.0.1:{port}/", timeout=10)
        assert lobby.status_code == 200 and "text/html" in lobby.headers["content-type"]
    finally:
        subprocess.run([*compose, "down", "-v"], cwd=ROOT, env=env, check=False, timeout=300)
