"""The Dockerfile and compose.yaml, read as text: there is no container runtime on CI.

What these prove without building an image: the image runs moji as PID 1 in exec form, as a
non-root user, with its data on a volume, installs the hash-checked lock file before moji
itself (``--no-deps``), and its health check (run here against a stand-in server) fails
unless ``/readyz`` answers 2xx. ``make image-check`` runs the same install steps in a venv.
"""

from __future__ import annotations

import http.server
import os
import re
import subprocess
import sys
import threading
from collections.abc import Iterator

import pytest

from tests.packaging.helpers import ROOT, Instruction, compose, dockerfile, env_of, final_stage, project

IMAGE = final_stage(dockerfile())


def only(keyword: str, instructions: list[Instruction] = IMAGE) -> Instruction:
    found = [ins for ins in instructions if ins.keyword == keyword]
    assert found, f"no {keyword} in the image's stage"
    return found[-1]  # the one in force


def test_a_slim_python_base() -> None:
    for ins in dockerfile():
        if ins.keyword == "FROM":
            image = ins.args.split()[0]
            assert re.fullmatch(r"python:\$\{PYTHON_VERSION\}-slim(-\w+)?", image), image


def test_the_image_python_is_the_one_the_lock_was_made_with() -> None:
    arg = next(ins for ins in dockerfile() if ins.keyword == "ARG" and ins.args.startswith("PYTHON_VERSION="))
    version = arg.args.split("=", 1)[1]
    header = (ROOT / "requirements.lock").read_text(encoding="utf-8")
    assert f"with Python {version}\n" in header
    floor = project()["requires-python"]
    assert floor == f">={version}", "the image runs the lowest Python CI tests"


def test_exec_form_entrypoint_runs_the_bot() -> None:
    assert only("ENTRYPOINT").exec_form() == ["python", "-m", "bot"]
    cmd = only("CMD").exec_form()
    assert cmd is not None, "CMD in exec form: python stays PID 1 and gets SIGTERM"
    assert cmd in ([], ["run"])
    assert only("STOPSIGNAL").args in ("SIGTERM", "15")


def test_runs_as_a_non_root_user() -> None:
    user = only("USER").args.split(":")[0]
    assert user not in ("", "root", "0")
    run = " ".join(ins.args for ins in IMAGE if ins.keyword == "RUN")
    assert f"--uid {user}" in run, "the user is created in the image"
    assert "chown moji:moji /data" in run, "and owns the data volume"


def test_data_on_a_volume_and_sqlite_there_by_default() -> None:
    volume = only("VOLUME")
    assert "/data" in (volume.exec_form() or volume.args.split())
    env = env_of(IMAGE)
    assert env["DATABASE_URL"] == "sqlite:////data/moji.db"
    assert only("WORKDIR").args == "/data"


def test_the_port_is_exposed_and_served_on_every_address() -> None:
    env = env_of(IMAGE)
    assert env["HOST"] == "0.0.0.0"
    assert env["PORT"] in only("EXPOSE").args.split()
    assert env["LOG_FORMAT"] == "json"


def test_installs_from_the_lock_file_then_moji_without_dependencies() -> None:
    runs = [(i, ins.args) for i, ins in enumerate(IMAGE) if ins.keyword == "RUN"]
    lock = [i for i, args in runs if "pip install --require-hashes" in args and "requirements.lock" in args]
    moji = [i for i, args in runs if re.search(r"pip install --no-deps \S*\.whl", args)]
    assert lock and moji and lock[0] < moji[0], runs
    assert any("pip check" in args for _, args in runs)
    assert any(ins.keyword == "COPY" and "requirements.lock" in ins.args for ins in IMAGE)
    assert not any(
        "pip install" in args and "requirements.lock" not in args and "--no-deps" not in args
        for _, args in runs
    ), "nothing installed that the lock does not pin"


def test_the_build_context_holds_what_the_copies_need() -> None:
    allowed = {
        line[1:].strip().rstrip("/")
        for line in (ROOT / ".dockerignore").read_text(encoding="utf-8").splitlines()
        if line.startswith("!")
    }
    assert (ROOT / ".dockerignore").read_text(encoding="utf-8").splitlines()[1] == "**"
    for ins in dockerfile():
        if ins.keyword == "COPY" and "--from=" not in ins.args:
            *sources, _dest = ins.args.split()
            for source in sources:
                assert source in allowed, f"{source} is excluded by .dockerignore"
                assert (ROOT / source).exists(), source
    assert ".env" not in allowed


# --- the health checks, run for real against a stand-in for moji's /readyz ------------------


class _Readyz(http.server.BaseHTTPRequestHandler):
    status = 200
    paths: list[str] = []  # noqa: RUF012 - shared by design: the test reads what was asked

    def do_GET(self) -> None:
        _Readyz.paths.append(self.path)
        self.send_response(_Readyz.status)
        self.end_headers()
        self.wfile.write(b"{}")

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def readyz() -> Iterator[int]:
    server = http.server.HTTPServer(("127.0.0.1", 0), _Readyz)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    _Readyz.paths.clear()
    try:
        yield server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()


def run_check(argv: list[str], port: int) -> int:
    assert argv[0] == "python"
    env = {**os.environ, "PORT": str(port)}
    return subprocess.run([sys.executable, *argv[1:]], env=env, timeout=30, check=False).returncode


def image_healthcheck() -> list[str]:
    args = only("HEALTHCHECK").args
    assert "--start-period=" in args and "--interval=" in args
    argv = Instruction("CMD", args.split(" CMD ", 1)[1]).exec_form()
    assert argv is not None, "HEALTHCHECK CMD in exec form"
    return argv


@pytest.mark.parametrize("status", [200, 503])
def test_the_image_healthcheck_asks_readyz_on_port(readyz: int, status: int) -> None:
    _Readyz.status = status
    assert (run_check(image_healthcheck(), readyz) == 0) is (status == 200)
    assert _Readyz.paths == ["/readyz"]


@pytest.mark.parametrize("status", [200, 503])
def test_the_compose_healthcheck_asks_readyz(readyz: int, status: int) -> None:
    test = compose()["services"]["moji"]["healthcheck"]["test"]
    assert test[0] == "CMD"
    argv = [arg.replace("127.0.0.1:3000", f"127.0.0.1:{readyz}") for arg in test[1:]]
    _Readyz.status = status
    assert (run_check(argv, readyz) == 0) is (status == 200)
    assert _Readyz.paths == ["/readyz"]


# --- compose.yaml -----------------------------------------------------------------------------


def test_compose_runs_moji_and_postgres() -> None:
    services = compose()["services"]
    assert set(services) == {"moji", "postgres"}
    assert services["postgres"]["image"] == "postgres:16"
    assert services["moji"]["build"] == "."


def test_compose_postgres_is_healthy_before_moji_starts() -> None:
    services = compose()["services"]
    test = services["postgres"]["healthcheck"]["test"]
    assert "pg_isready" in " ".join(test)
    assert services["moji"]["depends_on"] == {"postgres": {"condition": "service_healthy"}}


def test_compose_points_moji_at_the_postgres_service() -> None:
    moji = compose()["services"]["moji"]
    assert moji["env_file"] == [".env"]
    url = moji["environment"]["DATABASE_URL"]
    assert re.fullmatch(r"postgresql://moji:\$\{POSTGRES_PASSWORD:-\w+\}@postgres:5432/moji", url), url
    postgres = compose()["services"]["postgres"]["environment"]
    assert postgres["POSTGRES_USER"] == "moji" and postgres["POSTGRES_DB"] == "moji"
    assert postgres["POSTGRES_PASSWORD"] == "${POSTGRES_PASSWORD:-moji}"


def test_compose_named_volumes_hold_the_data() -> None:
    data = compose()
    assert set(data["volumes"]) == {"moji-data", "postgres-data"}
    assert "moji-data:/data" in data["services"]["moji"]["volumes"]
    assert "postgres-data:/var/lib/postgresql/data" in data["services"]["postgres"]["volumes"]


def test_compose_publishes_the_exposed_port_and_allows_a_graceful_stop() -> None:
    moji = compose()["services"]["moji"]
    assert moji["environment"]["PORT"] == env_of(IMAGE)["PORT"]
    assert all(port.endswith(":" + env_of(IMAGE)["PORT"]) for port in moji["ports"])
    grace = moji["stop_grace_period"]
    assert grace.endswith("s") and int(grace[:-1]) >= 10
