"""deploy/compose.yaml, run for real without containers: each service's command runs as a local
process with the environment compose would give it (the image's ENV, then the service's), its
container paths mapped to folders under tmp_path and its container ports to free local ports,
and the service names resolved to loopback. Then the reader's health check command passes and
the reader's admin proxy reaches the scraper."""
import os
import re
import shlex
import subprocess
import sys
import time

import pytest
import yaml

from bench.server import ROOT, Client, free_port

pytestmark = pytest.mark.process

TOKEN = "compose-test-token-0123456789"


def image_env():
    line = re.search(r"^ENV (.*)$", (ROOT / "deploy" / "Dockerfile").read_text(), re.M)[1]
    return dict(re.findall(r"(\w+)=(\S+)", line))


def interpolate(value, variables):
    """Compose's ${NAME}, ${NAME:-default} and ${NAME:?error}."""
    def one(match):
        name, op, arg = match[1], match[2], match[3]
        if variables.get(name):
            return variables[name]
        if op == ":?":
            raise AssertionError(f"compose needs {name}: {arg}")
        return arg or ""

    return re.sub(r"\$\{(\w+)(?:(:-|:\?)([^}]*))?\}", one, str(value))


class Mapping:
    """Container paths → local folders, container host:port → local ports, service names → loopback."""

    def __init__(self, paths, ports):
        self.paths, self.ports = paths, ports

    def __call__(self, text):
        for (host, port), local in self.ports.items():
            text = re.sub(rf"(//|^){re.escape(host)}:{port}\b", rf"\g<1>127.0.0.1:{local}", text)
            text = re.sub(rf"\b127\.0\.0\.1:{port}\b|\b0\.0\.0\.0:{port}\b", f"127.0.0.1:{local}", text)
        for inside, outside in self.paths.items():
            text = re.sub(rf"^{re.escape(inside)}(?=/|$)", str(outside), text)
        return text


@pytest.fixture
def compose(tmp_path, library_dir):
    spec = yaml.safe_load((ROOT / "deploy" / "compose.yaml").read_text())
    host = {"SCRAPER_TOKEN": TOKEN, "LIBRARY_PATH": str(library_dir), "DATA_PATH": str(tmp_path / "data"),
            "BACKUP_PATH": str(tmp_path / "backup")}
    paths = {}
    for service in spec["services"].values():
        for volume in service["volumes"]:
            outside, inside = interpolate(volume, host).split(":")[:2]
            assert paths.setdefault(inside, outside) == outside
            os.makedirs(outside, exist_ok=True)
    reader_port, scraper_port = free_port(), free_port()
    mapping = Mapping(paths, {("scraper", 8091): scraper_port, ("localhost", 8080): reader_port})
    procs = []

    def run(name):
        service = spec["services"][name]
        env = {**os.environ, **image_env()}
        env.update({k: interpolate(v, host) for k, v in service["environment"].items()})
        env = {k: mapping(v) for k, v in env.items()}
        env["PORT"] = str(reader_port)  # the container's 8080, published
        env.update(SCRYPT_LOG_N="10", SCAN_INTERVAL="0", SCAN_SETTLE="0")
        argv = [sys.executable if a == "python" else a for a in service["command"]]
        log = open(tmp_path / f"{name}.log", "ab")
        proc = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
                                start_new_session=True)
        procs.append(proc)
        return proc, env

    run.host = host  # what the host gives compose; a test may change it before run()
    yield spec, run, mapping, reader_port, tmp_path
    for proc in procs:
        if proc.poll() is None:
            os.killpg(proc.pid, 15)
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, 9)
                proc.wait()


def wait(check, what, timeout=30):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if check():
                return
        except OSError:
            pass
        time.sleep(0.1)
    raise AssertionError(f"no {what} after {timeout} s")


def test_the_compose_services_start_pass_the_health_check_and_reach_each_other(compose):
    spec, run, mapping, reader_port, tmp_path = compose
    assert set(spec["services"]) == {"reader", "scraper"}
    reader_volumes = spec["services"]["reader"]["volumes"]
    assert any(v.endswith(":/library:ro") for v in reader_volumes), "the reader mounts the library read-only"
    assert spec["services"]["reader"]["ports"] == ["${PORT:-8080}:8080"]
    assert "ports" not in spec["services"]["scraper"]  # its API is reached inside the compose network only

    scraper, _ = run("scraper")
    reader, reader_env = run("reader")
    wait(lambda: "runscraper is now running" in (tmp_path / "scraper.log").read_text(), "scraper")
    wait(lambda: Client("127.0.0.1", reader_port).get("/api/auth")[0] == 200, "reader")

    check = spec["services"]["reader"]["healthcheck"]["test"]
    assert check[0] == "CMD"
    argv = [sys.executable if a == "python" else mapping(a) for a in check[1:]]
    assert subprocess.run(argv, timeout=30).returncode == 0, "the health check command fails"

    admin = Client("127.0.0.1", reader_port).signup("admin", "correct horse battery")
    status, _, body = admin.get("/api/admin/scraper/status")
    assert status == 200 and body["state"] == "idle", body
    assert admin.get("/api/admin/health")[2]["scraper"]["heartbeat"]["state"] in ("idle", "running")
    assert scraper.poll() is None and reader.poll() is None


def readme_commands():
    """The indented command lines of the README's "With Docker Compose" section."""
    section = (ROOT / "README.md").read_text().split("\n## With Docker Compose\n")[1].split("\n## ")[0]
    return [line.strip() for line in section.splitlines() if line.startswith("    ")]


def test_the_readme_commands_write_a_token_and_start_these_services(compose, tmp_path):
    """README.md: the token line is run as written; the compose line's file, subcommand and
    variables are the ones the services here run with (compose itself needs a container runtime)."""
    spec, run, mapping, reader_port, _ = compose
    make_token, start = readme_commands()
    checkout = tmp_path / "checkout"
    (checkout / "deploy").mkdir(parents=True)
    subprocess.run(["bash", "-c", make_token], cwd=checkout, check=True, timeout=30)
    name, token = (checkout / "deploy" / ".env").read_text().strip().split("=", 1)
    assert name == "SCRAPER_TOKEN" and len(token) >= 40

    words = shlex.split(start)
    assigned = dict(w.split("=", 1) for w in words if re.match(r"^[A-Z_]+=", w))
    argv = [w for w in words if not re.match(r"^[A-Z_]+=", w)]
    assert argv == ["docker", "compose", "-f", "deploy/compose.yaml", "up", "-d", "--build"]
    interpolated = set(re.findall(r"\$\{(\w+)", (ROOT / "deploy" / "compose.yaml").read_text()))
    assert set(assigned) <= interpolated and "LIBRARY_PATH" in assigned

    run.host["SCRAPER_TOKEN"] = token  # the library stays the test's: /srv/manga is not on this machine
    _, scraper_env = run("scraper")
    _, reader_env = run("reader")
    assert scraper_env["SCRAPER_TOKEN"] == reader_env["SCRAPER_TOKEN"] == token
    wait(lambda: "runscraper is now running" in (tmp_path / "scraper.log").read_text(), "scraper")
    wait(lambda: Client("127.0.0.1", reader_port).get("/api/auth")[0] == 200, "reader")
    admin = Client("127.0.0.1", reader_port).signup("admin", "correct horse battery")
    status, _, body = admin.get("/api/admin/scraper/status")
    assert status == 200 and body["state"] == "idle", body  # the reader reached the scraper with that token
