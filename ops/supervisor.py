"""`startall`'s supervisor: the reader, the scraper and nginx as child processes, each on its own.

1. Each service is started as a child in its own session; its output is copied to ours with a
   `[name]` prefix and its last lines kept for incidents.
2. A child that exits while we are not stopping is an unexpected exit; whatever it leaves running in
   its session is killed. It is started again after the backoff, which doubles from `base` (1 s) up
   to `cap` (60 s) and falls back to `base` once the service has run `healthy` seconds (10 min)
   without exiting.
3. More than `max_exits` (5) unexpected exits within `window` seconds (10 min) stop the restarts
   of that service, and a `crash-loop` incident is recorded with the last lines of its output.
   The other service is never touched: one failing never stops the other.
4. An admin restarts a given-up service from the reader (Settings → Admin → Incidents & health),
   which writes DATA/supervisor-restart.json; `tick()` picks it up.
5. `stop()` sends SIGTERM to every child and waits for each (the reader flushes, the scraper stops
   at a page boundary); a child still running after its `stop_timeout` gets SIGKILL.

The supervisor's state is in DATA/supervisor.json, rewritten atomically on every change, for the
reader's health endpoint. Time is `clock()` (monotonic seconds), injected by tests.
"""
import collections
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from mangacircus import incidents, jsonfile

STATE_FILE = "supervisor.json"
# How a refused state file ends its message (mangacircus/jsonfile.py, StateFileError).
CORRUPT = re.compile(r"left untouched", re.I)
RESTART_FILE = "supervisor-restart.json"
TAIL_LINES = 30


class Service:
    def __init__(self, name, argv, env=None, stop_timeout=30):
        self.name, self.argv, self.env, self.stop_timeout = name, list(argv), env, stop_timeout
        self.proc = None
        self.started = None  # clock() at the last start
        self.started_wall = None
        self.exits = collections.deque()  # clock() of unexpected exits within the window
        self.delay = None
        self.restart_at = None
        self.gave_up = False
        self.restarts = 0
        self.last_exit = None
        self.reader = None
        self.corrupt_noted = None
        self.tail = collections.deque(maxlen=TAIL_LINES)

    @property
    def state(self):
        if self.gave_up:
            return "gave-up"
        if self.proc is not None and self.proc.poll() is None:
            return "running"
        return "waiting" if self.restart_at is not None else "stopped"


class Supervisor:
    def __init__(self, services, data_dir, *, clock=time.monotonic, base=1.0, cap=60.0, healthy=600.0,
                 window=600.0, max_exits=5, out=None):
        self.services = {s.name: s for s in services}
        self.data_dir = Path(data_dir)
        self.clock = clock
        self.base, self.cap, self.healthy, self.window, self.max_exits = base, cap, healthy, window, max_exits
        self.out = out or sys.stdout
        self.out_lock = threading.Lock()
        self.stopping = False
        self.started_wall = time.time()

    # -- running children ---------------------------------------------------------------------

    def start(self):
        for service in self.services.values():
            service.delay = self.base
            self._spawn(service)
        self.save()

    def _spawn(self, service):
        service.restart_at = None
        service.tail.clear()
        service.proc = subprocess.Popen(
            service.argv, env=service.env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL, start_new_session=True,
        )
        service.started = self.clock()
        service.started_wall = time.time()
        service.reader = threading.Thread(target=self._copy_output, args=(service, service.proc), daemon=True,
                                          name=f"output {service.name}")
        service.reader.start()

    def _copy_output(self, service, proc):
        for raw in proc.stdout:
            line = raw.decode(errors="replace").rstrip("\n")
            service.tail.append(line)
            self.say(f"[{service.name}] {line}")
        proc.stdout.close()

    def say(self, text):
        with self.out_lock:
            self.out.write(text + "\n")
            self.out.flush()

    def tick(self):
        """One round: notice exits, start what is due, reset the backoff of healthy services."""
        now = self.clock()
        changed = self._take_restart_request()
        for service in self.services.values():
            proc = service.proc
            if proc is not None and proc.poll() is not None:
                # What it left in its session (nginx's worker, a gunicorn worker) would keep its port.
                _signal(proc, signal.SIGKILL)
                service.proc = None
                service.reader.join(1)  # its last lines, for the incident
                self._exited(service, proc.returncode, now)
                changed = True
            elif proc is not None and now - service.started >= self.healthy and service.delay != self.base:
                service.delay = self.base
            if service.restart_at is not None and now >= service.restart_at and not self.stopping:
                service.restarts += 1
                self.say(f"startall: starting {service.name} again (restart {service.restarts})")
                self._spawn(service)
                changed = True
        if changed:
            self.save()

    def _exited(self, service, code, now):
        if self.stopping:
            return
        service.last_exit = code
        self._note_corrupt_file(service)
        if now - service.started >= self.healthy:
            service.delay = self.base
        service.exits.append(now)
        while service.exits and service.exits[0] < now - self.window:
            service.exits.popleft()
        if len(service.exits) > self.max_exits:
            service.gave_up = True
            message = (f"{service.name} exited {len(service.exits)} times in {self.window / 60:g} minutes "
                       f"(last exit status {code}); restarts stopped until an admin restarts it")
            self.say(f"startall: {message}")
            incidents.record("crash-loop", service.name, message, data_dir=self.data_dir,
                             exitStatus=code, log=list(service.tail))
            return
        service.restart_at = now + service.delay
        self.say(f"startall: {service.name} exited with status {code}; starting it again in {service.delay:g} s")
        service.delay = min(service.delay * 2, self.cap)

    def _note_corrupt_file(self, service):
        """A child refused a corrupt state file (the file was left untouched and the child exited):
        a `corrupt-file` incident, once per message. The child itself writes nothing into DATA then."""
        refusal = next((line for line in reversed(service.tail) if CORRUPT.search(line)), None)
        if refusal and refusal != service.corrupt_noted:
            service.corrupt_noted = refusal
            incidents.record("corrupt-file", service.name, refusal.removeprefix("CommandError: "),
                             data_dir=self.data_dir)

    def restart(self, name):
        """Start a stopped or given-up service now, with its exit count and backoff reset."""
        service = self.services[name]
        if service.state == "running":
            return False
        service.gave_up = False
        service.exits.clear()
        service.delay = self.base
        service.restart_at = self.clock()
        return True

    def _take_restart_request(self):
        path = self.data_dir / RESTART_FILE
        try:
            request = json.loads(path.read_bytes())
            path.unlink()
        except (OSError, ValueError):
            return False
        name = request.get("service") if isinstance(request, dict) else None
        if name in self.services and self.restart(name):
            self.say(f"startall: an admin asked to restart {name}")
            return True
        return False

    def stop(self):
        """SIGTERM to every child, then wait for each; SIGKILL after its stop_timeout."""
        self.stopping = True
        running = [s for s in self.services.values() if s.proc is not None and s.proc.poll() is None]
        for service in running:
            _signal(service.proc, signal.SIGTERM)
        for service in running:
            try:
                service.proc.wait(service.stop_timeout)
            except subprocess.TimeoutExpired:
                self.say(f"startall: {service.name} did not stop in {service.stop_timeout} s; killing it")
                _signal(service.proc, signal.SIGKILL)
                service.proc.wait()
        for service in self.services.values():
            service.restart_at = None
        self.save()
        return {s.name: (s.proc.returncode if s.proc else None) for s in self.services.values()}

    # -- state for the reader --------------------------------------------------------------------

    def status(self):
        now = self.clock()
        return {
            "pid": os.getpid(), "started": int(self.started_wall * 1000), "stopping": self.stopping,
            "services": {
                s.name: {
                    "state": s.state, "pid": s.proc.pid if s.state == "running" else None,
                    "started": int(s.started_wall * 1000) if s.started_wall else None,
                    "restarts": s.restarts, "recentExits": len(s.exits), "lastExit": s.last_exit,
                    "nextStartIn": round(s.restart_at - now, 1) if s.restart_at is not None else None,
                }
                for s in self.services.values()
            },
        }

    def save(self):
        try:
            jsonfile.write_atomic(self.data_dir / STATE_FILE, json.dumps(self.status()).encode(), mode=0o644)
        except OSError as e:
            self.say(f"startall: cannot write {self.data_dir / STATE_FILE}: {e}")


def _signal(proc, signum):
    try:
        os.killpg(proc.pid, signum)
    except ProcessLookupError:
        pass


def read_state(data_dir):
    """What the supervisor last wrote, or None when no `startall` supervises this DATA."""
    from mangacircus import locks

    if not locks.is_held(Path(data_dir) / LOCK_FILE):
        return None
    try:
        return json.loads(jsonfile.read_capped(Path(data_dir) / STATE_FILE))
    except (OSError, ValueError, jsonfile.StateFileError):
        return None


def request_restart(data_dir, name):
    jsonfile.write_atomic(Path(data_dir) / RESTART_FILE, json.dumps({"service": name, "time": time.time()}).encode())


LOCK_FILE = ".startall.lock"
