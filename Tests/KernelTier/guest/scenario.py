"""Runs the real orientd on the real kernel, in the guest that scripts/kernel-vm boots, on one
sensor fed to its kernel driver from user space, and prints what it measured as lines
`RESULT {json}` for Tests/KernelTierTests, which judges them. It asserts nothing itself.

    python3 scenario.py SENSOR --bin DIR

SENSOR: hid (a HID sensor hub over uhid), an i2c chip on i2c-stub (bmc150, kxcjk1013, mxc4005,
mma8452), or uinput (an input-subsystem accelerometer, with systemd-udevd). DIR holds the
orientd and orientctl to run.
"""
import argparse
import grp
import json
import os
import pwd
import select
import shutil
import signal
import socket
import stat
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

# In a directory of orientd's user's own: orientd runs as that user, as orientd.service runs it.
SOCKET = "/run/orientd-tier/orientd.sock"
PROJECT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../..")
# How long a device lies still before it counts as still: orientd's still-after-ms (1.5 s) and a margin.
SETTLE_SECONDS = 2


def lie_still(sensor, watched=True):
    """The device lies still until orientd counts it still: a hub that orientd watches, until its
    change sensitivity is armed (waited for: a loaded emulated CPU may take longer than the
    settle); anything else for SETTLE_SECONDS."""
    if watched and hasattr(sensor, "change_sensitivity"):
        wait_until(lambda: sensor.change_sensitivity() > 0, 10, every=0.1)
    else:
        time.sleep(SETTLE_SECONDS)

# Gravity's reaction in the device's axes for each pose, in g (docs/conventions.md).
POSES = {
    "portrait": (0, -1, 0),
    "portraitUpsideDown": (0, 1, 0),
    "landscapeLeft": (-1, 0, 0),
    "landscapeRight": (1, 0, 0),
    "faceUp": (0, 0, 1),
    "faceDown": (0, 0, -1),
}
TOUR = ["landscapeLeft", "portraitUpsideDown", "landscapeRight", "portrait", "faceUp", "faceDown", "portrait"]


def result(name, **facts):
    print("RESULT " + json.dumps({"scenario": name, **facts}), flush=True)


def note(text):
    print("scenario: " + text, flush=True)


def wait_until(condition, timeout, every=0.01):
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value or time.monotonic() >= deadline:
            return value
        time.sleep(every)


def stop(process, grace=10):
    """Ends a daemon as systemd would: SIGTERM, then SIGKILL after `grace` seconds."""
    process.terminate()
    try:
        process.wait(grace)
    except subprocess.TimeoutExpired:
        process.kill()


class Subscriber:
    """A client of orientd's socket following deviceOrientationDidChange."""

    def __init__(self, events=("deviceOrientationDidChange",)):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(SOCKET)
        self.buffer = b""
        self.next_message(5)  # hello
        self.send({"id": 1, "method": "subscribe", "events": list(events)})
        self.reply = self.next_message(5) or {}
        self.orientation = self.reply.get("result", {}).get("orientation")

    def next_event(self, name, timeout):
        """The next event called `name`, and when it arrived; (None, None) by the deadline."""
        deadline = time.monotonic() + timeout
        while True:
            message = self.next_message(max(0, deadline - time.monotonic()))
            if message is None:
                return None, None
            if message.get("event") == name:
                return message, time.monotonic()

    def send(self, message):
        self.sock.sendall((json.dumps(message) + "\n").encode())

    def next_message(self, timeout):
        deadline = time.monotonic() + timeout
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            self.sock.settimeout(left)
            try:
                chunk = self.sock.recv(65536)
            except (socket.timeout, OSError):
                return None
            if not chunk:
                return None
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return json.loads(line)

    def next_orientation(self, timeout):
        """The next orientation published, and when it arrived; (None, None) by the deadline."""
        deadline = time.monotonic() + timeout
        while True:
            message = self.next_message(max(0, deadline - time.monotonic()))
            if message is None:
                return None, None
            if message.get("event") == "deviceOrientationDidChange":
                self.orientation = message.get("orientation")
                return self.orientation, time.monotonic()

    def turn_and_hear(self, sensor, pose, timeout=5, since=None):
        """Turns the sensor to `pose`; what the subscriber heard and after how many ms (counted
        from `since`, a monotonic time, when given)."""
        start = time.monotonic() if since is None else since
        sensor.set_acceleration(*POSES[pose])
        while True:
            heard, at = self.next_orientation(max(0, start + timeout - time.monotonic()))
            if heard is None or heard == pose:
                return heard, None if at is None else round((at - start) * 1000)

    def close(self):
        self.sock.close()


def mapped_files(pid):
    """Every file process `pid` maps (its binary, its libraries)."""
    with open(f"/proc/{pid}/maps") as maps:
        return {line.split(None, 5)[5].strip() for line in maps if len(line.split(None, 5)) == 6 and line.split(None, 5)[5].startswith("/")}


def suspend_with_a_turn(sensor, subscriber, daemon, pose):
    """Suspends the guest (freeze: suspend-to-idle) with the device turned to `pose` while it
    sleeps, woken by a key on its serial port (scripts/kernel-vm types it); what the subscriber
    heard after the resume, and after how many ms.

    The kernel freezes every task before it sleeps; orientd is stopped first, so the turn comes
    after its last read, as a turn made while asleep does. The guest's root is 9p, whose virtio
    transport does not survive a suspend: every file the two processes map is read into the page
    cache first, so nothing after the resume needs it."""
    with open("/sys/class/tty/ttyS0/power/wakeup", "w") as wakeup:
        wakeup.write("enabled")
    for path in mapped_files(daemon.process.pid) | mapped_files(os.getpid()):
        try:
            with open(path, "rb") as file:
                while file.read(1 << 20):
                    pass
        except OSError:
            pass
    os.kill(daemon.process.pid, signal.SIGSTOP)
    sensor.set_acceleration(*POSES[pose])
    print("orientd-guest: suspending", flush=True)
    with open("/sys/power/state", "w") as state:
        state.write("freeze")
    resumed = time.monotonic()
    print("orientd-guest: resumed", flush=True)
    os.kill(daemon.process.pid, signal.SIGCONT)
    heard, ms = subscriber.turn_and_hear(sensor, pose, since=resumed)
    with open("/sys/power/suspend_stats/success") as success:
        return heard, ms, int(success.read())


def follow_ambient_sensors(sensor):
    """The hub's light and proximity sensors through orientd's socket: what a subscription says
    first, then each change heard, and after how many ms."""
    client = Subscriber(events=["ambientLightDidChange", "proximityStateDidChange"])
    first = client.reply.get("result", {})
    changes = []
    for name, change, event, read in [
        ("light 250 lux", lambda: sensor.set_illuminance(250), "ambientLightDidChange",
         lambda event: {"level": event.get("level"), "unit": event.get("unit")}),
        ("near", lambda: sensor.set_proximity(True), "proximityStateDidChange", lambda event: event.get("proximityState")),
        ("far", lambda: sensor.set_proximity(False), "proximityStateDidChange", lambda event: event.get("proximityState")),
    ]:
        start = time.monotonic()
        change()
        heard, at = client.next_event(event, 5)
        changes.append({"change": name, "heard": None if heard is None else read(heard),
                        "ms": None if at is None else round((at - start) * 1000)})
    client.close()
    result("ambient", light=first.get("ambientLight"), light_available=first.get("lightAvailable"),
           proximity_available=first.get("proximityAvailable"), changes=changes)


def install_orientd_user_and_rule():
    """As the package does: the orientd system user (systemd/orientd.sysusers) and udev's
    61-orientd.rules, whose helper gives that user an accelerometer's files (here from the
    project's tree). Before udevd starts, so every sensor made after has them."""
    subprocess.run(["systemd-sysusers", os.path.join(PROJECT, "systemd/orientd.sysusers")], check=True, capture_output=True)
    with open(os.path.join(PROJECT, "udev/61-orientd.rules")) as shipped:
        rule = shipped.read().replace("/usr/libexec/orientd/", os.path.join(os.path.abspath(PROJECT), "udev") + "/")
    with open("/etc/udev/rules.d/61-orientd.rules", "w") as installed:
        installed.write(rule)
    os.makedirs(os.path.dirname(SOCKET), exist_ok=True)
    user = pwd.getpwnam("orientd")
    os.chown(os.path.dirname(SOCKET), user.pw_uid, user.pw_gid)


def accelerometer_directory():
    """The sysfs directory of the IIO accelerometer, if there is one."""
    # No IIO core at all when the sensor is an input device.
    for name in sorted(os.listdir("/sys/bus/iio/devices")) if os.path.isdir("/sys/bus/iio/devices") else []:
        directory = os.path.join("/sys/bus/iio/devices", name)
        if os.path.exists(os.path.join(directory, "in_accel_x_raw")) or os.path.exists(os.path.join(directory, "scan_elements/in_accel_x_en")):
            return directory
    return None


def privilege(daemon):
    """Whose orientd runs as, which of the accelerometer's files its group may write, and what a
    write as that user to another file of the device (uevent, root's) gets."""
    with open(f"/proc/{daemon.process.pid}/status") as status:
        lines = status.read().splitlines()
    uid = int(next(line for line in lines if line.startswith("Uid:")).split()[1])
    groups = next(line for line in lines if line.startswith("Groups:")).split()[1:]
    facts = {"user": pwd.getpwuid(uid).pw_name, "groups": [grp.getgrgid(int(gid)).gr_name for gid in groups]}
    # Each input device by its name, and whether its ACL lets orientd's group read it.
    facts["input_readable"] = {}
    for node in sorted(os.listdir("/dev/input")):
        if node.startswith("event"):
            with open(f"/sys/class/input/{node}/device/name") as name:
                acl = subprocess.run(["getfacl", "-cp", f"/dev/input/{node}"], capture_output=True, text=True).stdout.split()
                facts["input_readable"][name.read().strip()] = "group:orientd:r--" in acl
    directory = accelerometer_directory()
    if directory:
        group = grp.getgrnam("orientd").gr_gid
        granted = []
        for root, _, files in os.walk(directory, followlinks=False):
            for name in files:
                info = os.lstat(os.path.join(root, name))
                if info.st_gid == group and info.st_mode & stat.S_IWGRP:
                    granted.append(os.path.relpath(os.path.join(root, name), directory))
        facts["granted"] = sorted(granted)
        device = os.path.join("/dev", os.path.basename(directory))
        facts["device_group"] = grp.getgrgid(os.stat(device).st_gid).gr_name if os.path.exists(device) else None
        facts["uevent_write"] = write_as_orientd(os.path.join(directory, "uevent"), "change")
    return facts


def write_as_orientd(path, text):
    """What writing `text` to `path` as the orientd user gets: "written", "refused" (EACCES or
    EPERM) or the error. In a forked child: a new Python would take a second to start here."""
    user = pwd.getpwnam("orientd")
    child = os.fork()
    if child == 0:
        try:
            os.setgroups([])
            os.setgid(user.pw_gid)
            os.setuid(user.pw_uid)
            with open(path, "w") as file:
                file.write(text)
            os._exit(0)
        except PermissionError:
            os._exit(13)
        except BaseException:
            os._exit(1)
    _, status = os.waitpid(child, 0)
    code = os.waitstatus_to_exitcode(status)
    return {0: "written", 13: "refused"}.get(code, f"failed ({code})")


def orientd_for_its_user(bin_dir):
    """orientd where its user can run it: the build's own when every directory above it lets
    other users through, else (a clone in /root) a copy in the guest's /run."""
    built = os.path.realpath(os.path.join(bin_dir, "orientd"))
    path = built
    while path != "/":
        if not os.stat(path).st_mode & stat.S_IXOTH:
            break
        path = os.path.dirname(path)
    else:
        return built
    copy = os.path.join(os.path.dirname(SOCKET), "orientd")
    if not os.path.exists(copy):
        shutil.copyfile(built, copy)
        os.chmod(copy, 0o755)
    return copy


class Orientd:
    def __init__(self, bin_dir, log, arguments=()):
        self.bin_dir = bin_dir
        self.log_path = log
        environment = dict(os.environ, ORIENTD_SOCKET=SOCKET)
        # As orientd.service runs it: its own user and group alone (udev's rule gives it its devices).
        self.process = subprocess.Popen([orientd_for_its_user(bin_dir), "--socket", SOCKET, *arguments],
                                        stdout=open(log, "w"), stderr=subprocess.STDOUT, env=environment,
                                        user="orientd", group="orientd", extra_groups=[])
        self.started = time.monotonic()
        wait_until(lambda: os.path.exists(SOCKET) or self.process.poll() is not None, 20)
        self.serving = time.monotonic()

    def ctl(self, *arguments, timeout=10):
        completed = subprocess.run([os.path.join(self.bin_dir, "orientctl"), *arguments], capture_output=True, text=True,
                                   env=dict(os.environ, ORIENTD_SOCKET=SOCKET), timeout=timeout)
        return completed.stdout.strip()

    def status(self):
        try:
            return json.loads(self.ctl("status", "--json"))
        except ValueError:
            return {}

    def log(self):
        with open(self.log_path) as log:
            return log.read()

    def stop(self, grace=10):
        stop(self.process, grace)


class PluggableHub:
    """A HID sensor hub that can be unplugged (UHID_DESTROY) and plugged back (a new one)."""

    def __init__(self):
        from hid_sensor_hub import HidSensorHub
        # No udevd loads them for a uhid device: the hub's drivers, as the kernel's modalias would.
        subprocess.run(["modprobe", "-a", "uhid", "hid-sensor-hub", "hid-sensor-accel-3d", "hid-sensor-als", "hid-sensor-prox"], check=True)
        self.make = HidSensorHub
        self.hub = None
        self.reports_before = 0
        self.replug(sensors=None)

    def replug(self, sensors=("accel_3d",)):
        """Plugged back, a hub with the accelerometer alone: in a suspend the kernel asks each of a
        hub's sensors to power down and up, and the hub, a process frozen with the others, answers
        none, so each request waits out uhid's 5 s (46 s in all with light and proximity too)."""
        self.hub = self.make(sensors=sensors)
        self.hub.start()
        self.hub.iio_device("accel_3d", timeout=10)

    def unplug(self):
        self.reports_before += self.hub.reports_sent("accel_3d")
        self.hub.destroy()

    def set_acceleration(self, x, y, z):
        self.hub.set_acceleration(x, y, z)

    def reports_sent(self, sensor):
        return self.reports_before + self.hub.reports_sent(sensor)

    def set_illuminance(self, lux):
        self.hub.set_illuminance(lux)

    def set_proximity(self, near):
        self.hub.set_proximity(near)

    def change_sensitivity(self):
        """The accelerometer's change sensitivity as the kernel last set it, in g."""
        return self.hub.properties("accel_3d")["change_sensitivity_value"]

    def report_interval_ms(self):
        return self.hub.properties("accel_3d").get("report_interval_ms")


class PluggableChip:
    """An i2c chip on i2c-stub, unplugged and plugged back as `hotplug` says: by delete_device
    and new_device, or by unbinding its driver and binding it again."""

    def __init__(self, name, hotplug):
        from i2c_accelerometers import I2cAccelerometer
        self.make = I2cAccelerometer.create
        self.name = name
        self.hotplug = hotplug
        self.chip = self.make(name)
        self.values = (0, -1, 0)

    def set_acceleration(self, x, y, z):
        self.values = (x, y, z)
        self.chip.set_acceleration(x, y, z)

    def unplug(self):
        if self.hotplug == "unbind":
            self.chip.unbind()
        else:
            self.chip.delete()

    def replug(self):
        if self.hotplug == "unbind":
            self.chip.bind()
        else:
            self.chip = self.make(self.name)
        self.chip.set_acceleration(*self.values)


def make_sensor(kind, hotplug):
    if kind == "hid":
        return PluggableHub()
    if kind == "uinput":
        from uinput_accelerometer import UinputAccelerometer
        return UinputAccelerometer.create()
    return PluggableChip(kind, hotplug)


# iio-sensor-proxy's names for the in-plane orientations (monitor-sensor prints them).
PROXY_NAMES = {"normal": "portrait", "bottom-up": "portraitUpsideDown", "right-up": "landscapeLeft", "left-up": "landscapeRight"}
PROXY_TOUR = ["landscapeLeft", "portraitUpsideDown", "landscapeRight", "portrait"]
BUS = "/run/tier-system-bus"
REFERENCE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../../.build/iio-sensor-proxy")


def start_system_bus():
    """A system bus of the guest's own, open to everyone, as the tests' private bus is."""
    config = "/run/tier-bus.conf"
    with open(config, "w") as file:
        file.write(f"""<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-BUS Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig><type>system</type><listen>unix:path={BUS}</listen><auth>EXTERNAL</auth>
<policy context="default"><allow user="*"/><allow own="*"/><allow send_destination="*"/><allow receive_sender="*"/>
<allow send_type="method_call"/><allow send_type="signal"/><allow receive_type="method_return"/><allow receive_type="signal"/>
<allow receive_type="error"/></policy></busconfig>""")
    subprocess.Popen(["dbus-daemon", f"--config-file={config}", "--nofork", "--nopidfile"])
    wait_until(lambda: os.path.exists(BUS), 10)
    os.environ["DBUS_SYSTEM_BUS_ADDRESS"] = f"unix:path={BUS}"


def reference_environment():
    return dict(os.environ, LD_LIBRARY_PATH=os.path.join(REFERENCE, "usr/lib/x86_64-linux-gnu"))


class MonitorSensor:
    """iio-sensor-proxy's own client, monitor-sensor, claiming the accelerometer over D-Bus as a
    desktop does, from whichever daemon serves net.hadess.SensorProxy."""

    def __init__(self):
        self.process = subprocess.Popen(["stdbuf", "-oL", os.path.join(REFERENCE, "usr/bin/monitor-sensor"), "--accel"],
                                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=reference_environment())
        os.set_blocking(self.process.stdout.fileno(), False)
        self.buffer = b""
        self.orientation, _ = self.next_orientation(10)

    def next_orientation(self, timeout):
        deadline = time.monotonic() + timeout
        while True:
            while b"\n" in self.buffer:
                line, self.buffer = self.buffer.split(b"\n", 1)
                text = line.decode(errors="replace")
                for marker in ("Accelerometer orientation changed: ", "Has accelerometer (orientation: "):
                    if marker in text:
                        name = text.split(marker, 1)[1].split(")")[0].strip()
                        self.orientation = PROXY_NAMES.get(name, name)
                        return self.orientation, time.monotonic()
            left = deadline - time.monotonic()
            if left <= 0:
                return None, None
            if select.select([self.process.stdout], [], [], left)[0]:
                chunk = self.process.stdout.read() or b""
                if not chunk and self.process.poll() is not None:
                    return None, None
                self.buffer += chunk

    turn_and_hear = Subscriber.turn_and_hear

    def close(self):
        self.process.terminate()
        self.process.wait(5)


class IioSensorProxy:
    """Debian's iio-sensor-proxy 3.0, on the same bus and the same sensor."""

    def __init__(self):
        self.process = subprocess.Popen([os.path.join(REFERENCE, "usr/sbin/iio-sensor-proxy")], env=reference_environment(),
                                        stdout=open("/run/iio-sensor-proxy.log", "w"), stderr=subprocess.STDOUT)

    def stop(self, grace=10):
        stop(self.process, grace)


def compare_on_dbus(options, sensor):
    """orientd's D-Bus face, then iio-sensor-proxy 3.0, each followed by monitor-sensor: every
    in-plane pose, and a turn after lying still (with the hub's reports while still)."""
    start_system_bus()
    # iio-sensor-proxy first: the hub is then as it came, at its own report interval, not at the
    # pace orientd asked of it.
    for name in ("iio-sensor-proxy", "orientd"):
        sensor.set_acceleration(*POSES["portrait"])
        if name == "orientd":
            daemon = Orientd(options.bin, "/run/orientd.log", ["--sensor-proxy", "--no-sensor-proxy-polkit"])
        else:
            daemon = IioSensorProxy()
        try:
            monitor = MonitorSensor()
            poses = []
            for pose in PROXY_TOUR:
                heard, ms = monitor.turn_and_hear(sensor, pose)
                poses.append({"pose": pose, "heard": heard, "ms": ms})
            lie_still(sensor, watched=name == "orientd")
            reports_before = sensor.reports_sent("accel_3d") if hasattr(sensor, "reports_sent") else None
            time.sleep(options.still_seconds)
            reports = None if reports_before is None else sensor.reports_sent("accel_3d") - reports_before
            heard, ms = monitor.turn_and_hear(sensor, "landscapeLeft")
            result("dbus-" + name, poses=poses, heard=heard, ms=ms,
                   still_seconds=options.still_seconds, still_reports=reports)
            monitor.close()
        finally:
            daemon.stop()
            log = "/run/iio-sensor-proxy.log" if name == "iio-sensor-proxy" else "/run/orientd.log"
            note(f"{name}'s log:\n" + open(log).read()[-2000:])


def get_over_socket():
    """The orientation a `get` on the socket answers (what `orientctl get` prints, without a
    process to start under an emulated CPU)."""
    client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    client.settimeout(10)
    client.connect(SOCKET)
    stream = client.makefile("rwb")
    stream.readline()  # hello
    stream.write(b'{"id":1,"method":"get"}\n')
    stream.flush()
    reply = json.loads(stream.readline() or b"{}")
    client.close()
    return reply.get("result", {}).get("orientation")


def first_get(daemon):
    """What a `get` first answered once orientd served its socket, and how long after that a
    `get` first answered the pose the device is in."""
    answers = []
    def answered():
        answers.append(get_over_socket())
        return answers[-1] == "portrait"
    wait_until(answered, 10, every=0.05)
    return answers[0], round((time.monotonic() - daemon.serving) * 1000), answers[-1]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("sensor")
    parser.add_argument("--bin", required=True)
    parser.add_argument("--still-seconds", type=float, default=12)
    parser.add_argument("--hotplug", choices=["delete", "unbind"], default="delete",
                        help="how an i2c chip is unplugged: delete_device, or unbinding its driver")
    parser.add_argument("--unplug-when-still", action="store_true",
                        help="unplug the sensor once it has lain still, not while it is read at the full rate")
    parser.add_argument("--suspend", action="store_true",
                        help="suspend the guest with the device turned while it sleeps")
    parser.add_argument("--dbus", action="store_true",
                        help="follow orientd's D-Bus face, then iio-sensor-proxy 3.0, with monitor-sensor instead")
    options = parser.parse_args()

    # As on a real machine: udev names input accelerometers and tells orientd of hotplug at once,
    # and gives a proximity sensor the level above which it is near, as systemd's hwdb does (a
    # HID hub's human presence reads 1 when someone is there, 0 when not); iio-sensor-proxy finds
    # its sensors by the type its own rule gives them.
    os.makedirs("/etc/udev/rules.d", exist_ok=True)
    if options.dbus:
        subprocess.run(["cp", os.path.join(REFERENCE, "lib/udev/rules.d/80-iio-sensor-proxy.rules"), "/etc/udev/rules.d/"], check=True)
    with open("/etc/udev/rules.d/61-tier-proximity.rules", "w") as rule:
        rule.write('SUBSYSTEM=="iio", ATTR{name}=="prox", ENV{PROXIMITY_NEAR_LEVEL}="0.5"\n')
    install_orientd_user_and_rule()
    from uinput_accelerometer import start_udevd
    start_udevd()
    sensor = make_sensor(options.sensor, options.hotplug)
    # udev has given the orientd user the new sensor's files.
    subprocess.run(["udevadm", "settle", "--timeout=10"], check=False)
    if options.dbus:
        subprocess.run(["udevadm", "trigger", "--subsystem-match=iio", "--action=change"], check=False)
        subprocess.run(["udevadm", "settle", "--timeout=10"], check=False)
        compare_on_dbus(options, sensor)
        return
    sensor.set_acceleration(*POSES["portrait"])
    daemon = Orientd(options.bin, "/run/orientd.log")
    try:
        first, after_ms, last = first_get(daemon)
        result("first-get", first=first, last=last, ms=after_ms)
        result("privilege", **privilege(daemon))

        subscriber = Subscriber()
        poses = []
        for pose in TOUR:
            heard, ms = subscriber.turn_and_hear(sensor, pose)
            poses.append({"pose": pose, "heard": heard, "ms": ms})
        result("poses", poses=poses)

        # Still with a subscriber, then a turn: how long until it is heard, and on a hub, how
        # many reports it sent while still, counted once orientd has seen it still (1.5 s without
        # motion, still-after-ms): the device lies still for these spans, which are what is measured.
        lie_still(sensor)
        reports_before = sensor.reports_sent("accel_3d") if hasattr(sensor, "reports_sent") else None
        time.sleep(options.still_seconds)
        reports = None if reports_before is None else sensor.reports_sent("accel_3d") - reports_before
        heard, ms = subscriber.turn_and_hear(sensor, "landscapeLeft")
        status = daemon.status()
        result("turn-from-still", heard=heard, ms=ms, still_seconds=options.still_seconds, still_reports=reports,
               still_watch=(status.get("sensor") or {}).get("stillWatch"),
               report_interval_ms=sensor.report_interval_ms() if hasattr(sensor, "report_interval_ms") else None)
        heard, ms = subscriber.turn_and_hear(sensor, "portrait")
        result("turn-after", heard=heard, ms=ms)

        if hasattr(sensor, "set_illuminance"):
            follow_ambient_sensors(sensor)


        # Unplugged while followed (while read, or once still: --unplug-when-still): unknown;
        # plugged back: turns again.
        if options.unplug_when_still:
            lie_still(sensor)  # a hub is then watched by its sensitivity
        sensor.unplug()
        heard, _ = subscriber.next_orientation(10)
        result("unplugged", heard=heard)
        start = time.monotonic()
        sensor.replug()
        heard, ms = subscriber.turn_and_hear(sensor, "landscapeRight", timeout=10, since=start)
        result("replugged", heard=heard, ms=ms)

        # Last: after a resume the guest's 9p root no longer answers (suspend_with_a_turn).
        if options.suspend:
            lie_still(sensor)  # as a machine put to sleep does
            heard, ms, suspends = suspend_with_a_turn(sensor, subscriber, daemon, "portraitUpsideDown")
            result("resume", heard=heard, ms=ms, suspends=suspends)
        if hasattr(sensor, "change_sensitivity"):
            # Lying still, so orientd stops while the hub reports only changes (after a resume the
            # device is read at the full rate first, then watched once still again).
            lie_still(sensor)
            result("armed", change_sensitivity=sensor.change_sensitivity(), report_interval_ms=sensor.report_interval_ms())
        subscriber.close()
    finally:
        # After a suspend orientd cannot exit (suspend_with_a_turn): what it does on SIGTERM is
        # done within a second or two, its exit never.
        daemon.stop(grace=2 if options.suspend else 10)
        if hasattr(sensor, "change_sensitivity"):
            result("stopped", change_sensitivity=sensor.change_sensitivity(), report_interval_ms=sensor.report_interval_ms())
        note("orientd's log:\n" + daemon.log())


def power_off():
    """Ends the guest as scripts/kernel-vm's init would once the command is done. After a suspend
    no process that has a file of the 9p root open can even exit (closing it asks the transport
    that did not survive), so the scenario says it is done and powers off itself."""
    print("\norientd-guest: exit 0", flush=True)
    with open("/proc/sysrq-trigger", "w") as sysrq:
        sysrq.write("o")
    time.sleep(60)


if __name__ == "__main__":
    main()
    if "--suspend" in sys.argv:
        power_off()
