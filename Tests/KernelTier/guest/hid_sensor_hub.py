"""A HID sensor hub emulated over /dev/uhid, for the kernel tier's scenario drivers.

The kernel's own drivers (hid-sensor-hub, hid-sensor-accel-3d, -als, -prox) bind to it and make
real IIO devices, `accel_3d`, `als` and `prox`, fed from this process:

    hub = HidSensorHub()
    hub.start()                              # the device appears; its IIO devices follow
    accel = hub.iio_device("accel_3d")       # /sys/bus/iio/devices/iio:deviceN, waited for
    hub.set_acceleration(0, 0, 1)            # in g
    hub.set_illuminance(250.0)               # in lux
    hub.set_proximity(True)                  # near
    hub.properties("accel_3d")               # interval, sensitivity, power and reporting state
    hub.reports_sent("accel_3d"), hub.report_times("accel_3d")
    hub.destroy()                            # the unplug: the IIO devices vanish

The hub behaves as a real one does (the HID Sensor Usages, HUTRR39, and what the drivers in
drivers/iio/common/hid-sensors expect): it answers GET_REPORT with the current properties (feature
reports) or the current reading (input reports), stores what SET_REPORT writes, and streams an
input report per sensor only while the kernel has opened the device and set that sensor to full
power with "all events" reporting: one per report interval, or, with a non-zero change
sensitivity, only when a reading moved by more than it since the last report sent. The first
report comes one interval after streaming starts, whatever the sensitivity. Defaults: 100 ms,
no sensitivity, powered off, no events; intervals under 10 ms are stored as 10 ms.

Facts about the drivers this hub is shaped by (Linux 6.1):
- Each sensor is a Physical collection; the hub driver makes one platform device per Physical
  (and Application) collection, named HID-SENSOR-<usage>, and routes every field by the usage of
  its Physical collection.
- Reporting and power state are named arrays; the kernel writes the chosen usage's index plus 1
  whatever the descriptor's logical minimum (hid-sensor-trigger.c), so their logical minimum
  here is 1 and full power is 2, power off 6, "no events" 1, "all events" 2.
- A report interval with no unit is in milliseconds; sampling_frequency = 1000 / interval, and
  writing it sets 1e9 / (Hz * 1e6) ms, truncated (the kernel reads the interval back).
- A raw read (in_accel_x_raw, ...) resumes the sensor if runtime-suspended (UHID_OPEN, full
  power, all events, then a 2-report-interval sleep), asks for the input report with GET_REPORT
  and returns the field; the sensor is powered off 3 s (plus up to 25%) after its last use.
- The change sensitivity is found as the data field's usage with the "change sensitivity
  absolute" modifier (0x1000); in_*_hysteresis is that field's value in its own unit and unit
  exponent (for the accelerometer: g, not m/s^2).
- The kernel copies 4 bytes for each data field into the IIO scan, whatever the field's size:
  a buffer reader must keep only the field's bits (realbits in scan_elements/*_type).

Axes: set_acceleration(x, y, z) is what the IIO device reads, unchanged: in_accel_x_raw is
x * 1000 (1 g = 1000 counts, in_accel_scale 0.009806650 m/s^2). In orientd's frame
(docs/conventions.md), a device lying face up with no mount matrix reads (0, 0, +1).

Standard library only (the guest runs the host's python3).
"""

import os
import select
import struct
import threading
import time

ACCEL = "accel_3d"
ALS = "als"
PROX = "prox"

# /usr/include/linux/uhid.h
UHID_DESTROY, UHID_START, UHID_STOP, UHID_OPEN, UHID_CLOSE, UHID_OUTPUT = 1, 2, 3, 4, 5, 6
UHID_GET_REPORT, UHID_GET_REPORT_REPLY, UHID_CREATE2, UHID_INPUT2 = 9, 10, 11, 12
UHID_SET_REPORT, UHID_SET_REPORT_REPLY = 13, 14
UHID_FEATURE_REPORT, UHID_INPUT_REPORT = 0, 2
UHID_EVENT_SIZE = 4 + 4372  # the type, then the largest member of the union (create2)
BUS_VIRTUAL = 0x06
EIO = 5

DEFAULT_INTERVAL_MS = 100
# The fastest this hub samples: a faster interval written is stored as this, and the kernel,
# which reads the interval back after writing it, shows it in sampling_frequency.
MIN_INTERVAL_MS = 10

# Index + 1 is the value on the wire (see the module's docstring).
REPORTING_STATES = ("no events", "all events", "threshold events",
                    "no events wake", "all events wake", "threshold events wake")
POWER_STATES = ("undefined", "D0 full power", "D1 low power",
                "D2 standby with wake", "D3 sleep with wake", "D4 power off")
STREAMING_REPORTING_STATES = ("all events", "all events wake")


class _Field:
    """One field of a report: a usage (on the sensor page, 0x20), its size and logical range,
    and its unit exponent (the unit is always the usage's default one, e.g. g, lux, ms).
    A selector is a named array: `choices` are its usages."""

    def __init__(self, usage, bits, minimum, maximum, exponent=0, choices=None):
        self.usage, self.bits, self.minimum, self.maximum = usage, bits, minimum, maximum
        self.exponent, self.choices = exponent, choices

    @property
    def format(self):
        """The field's struct format: signed when its logical minimum is negative."""
        code = {8: "b", 16: "h", 32: "i"}[self.bits]
        return code if self.minimum < 0 else code.upper()

    def counts(self, value):
        """The field's count nearest to `value` (in the field's unit), within its range."""
        return max(self.minimum, min(self.maximum, round(value / 10 ** self.exponent)))


def _selector(usage, first_choice, names):
    return _Field(usage, 8, 1, len(names), choices=range(first_choice, first_choice + len(names)))


REPORTING_STATE = _selector(0x0316, 0x0840, REPORTING_STATES)
POWER_STATE = _selector(0x0319, 0x0850, POWER_STATES)
REPORT_INTERVAL = _Field(0x030E, 32, 0, 0x7FFFFFFF)
CHANGE_SENSITIVITY_ABS = 0x1000  # a modifier: ORed into a data usage


class _Sensor:
    """One sensor's report ID, fields, the properties the kernel set, and its reading."""

    def __init__(self, name, usage, report_id, data_fields, sensitivity_usage, sensitivity_exponent):
        self.name, self.usage, self.report_id = name, usage, report_id
        self.sensitivity = _Field(CHANGE_SENSITIVITY_ABS | sensitivity_usage, 16, 0, 0x7FFF,
                                  sensitivity_exponent)
        self.feature_fields = [REPORTING_STATE, POWER_STATE, REPORT_INTERVAL, self.sensitivity]
        self.input_fields = data_fields
        # The feature report's values, in its fields' order; as after a reset: off, no events.
        self.feature = dict(reporting_state=1, power_state=6, report_interval=DEFAULT_INTERVAL_MS,
                            sensitivity=0)
        self.data = [0] * len(data_fields)
        self.last_sent = None  # the data of the last input report sent while streaming
        self.next_due = None  # when streaming: the earliest the next input report may go
        self.times = []

    # Reports on the wire: the report ID, then each field little-endian.
    def feature_report(self):
        return self._pack(self.feature_fields, self.feature.values())

    def input_report(self):
        return self._pack(self.input_fields, self.data)

    def _pack(self, fields, values):
        return struct.pack("<B" + "".join(f.format for f in fields), self.report_id, *values)

    def store_feature(self, report):
        values = struct.unpack_from("<" + "".join(f.format for f in self.feature_fields), report, 1)
        self.feature = dict(zip(self.feature, values))
        self.feature["report_interval"] = max(MIN_INTERVAL_MS, self.feature["report_interval"])

    @property
    def interval(self):
        return self.feature["report_interval"] / 1000

    def streaming(self, opened):
        return (opened and _name(POWER_STATES, self.feature["power_state"]) == "D0 full power"
                and _name(REPORTING_STATES, self.feature["reporting_state"]) in STREAMING_REPORTING_STATES)

    def moved_enough(self):
        """Whether a data field moved by more than the change sensitivity since the last report
        sent (always, with no sensitivity or nothing sent yet)."""
        threshold = self.feature["sensitivity"]
        if threshold == 0 or self.last_sent is None:
            return True
        return any(_greater(abs(now - before), field.exponent, threshold, self.sensitivity.exponent)
                   for field, now, before in zip(self.input_fields, self.data, self.last_sent))

    def due(self, opened):
        """When the next input report goes, or None while none is to go."""
        if not self.streaming(opened) or not self.moved_enough():
            return None
        return self.next_due

    def properties(self):
        feature = self.feature
        return {
            "report_interval_ms": feature["report_interval"],
            "change_sensitivity": feature["sensitivity"],  # counts of the sensitivity field
            # in the sensitivity field's unit: g, lux, ...
            "change_sensitivity_value": feature["sensitivity"] * 10 ** self.sensitivity.exponent,
            "power_state": _name(POWER_STATES, feature["power_state"]),
            "reporting_state": _name(REPORTING_STATES, feature["reporting_state"]),
            "power_state_value": feature["power_state"],
            "reporting_state_value": feature["reporting_state"],
        }


def _name(names, value):
    index = value - 1
    return names[index] if 0 <= index < len(names) else "invalid (%d)" % value


def _greater(a, a_exponent, b, b_exponent):
    """Whether a * 10^a_exponent > b * 10^b_exponent, in integers."""
    if a_exponent >= b_exponent:
        return a * 10 ** (a_exponent - b_exponent) > b
    return a > b * 10 ** (b_exponent - a_exponent)


def _sensors():
    g = -3  # 1 g = 1000 counts, up to 32 g
    accel = [_Field(usage, 16, -32767, 32767, g) for usage in (0x0453, 0x0454, 0x0455)]
    illuminance = [_Field(0x04D1, 32, 0, 1000000, -1)]  # 0.1 lux, up to 100000 lux
    presence = [_Field(0x04B1, 8, 0, 1)]
    return {
        ACCEL: _Sensor(ACCEL, 0x0073, 1, accel, 0x0452, g),  # data usage: acceleration
        ALS: _Sensor(ALS, 0x0041, 2, illuminance, 0x04D1, -1),  # illuminance
        PROX: _Sensor(PROX, 0x0011, 3, presence, 0x04B1, 0),  # human presence
    }


# The report descriptor, built from the fields above so that it and the reports agree.
def _item(prefix, value):
    """A short item with the smallest signed size holding `value`."""
    for size, code, fmt in ((1, 1, "<b"), (2, 2, "<h"), (4, 3, "<i")):
        if -(1 << (8 * size - 1)) <= value < (1 << (8 * size - 1)):
            return bytes([prefix | code]) + struct.pack(fmt, value)
    return bytes([prefix | 3]) + struct.pack("<I", value)


USAGE_PAGE, LOGICAL_MIN, LOGICAL_MAX, UNIT_EXPONENT, UNIT = 0x04, 0x14, 0x24, 0x54, 0x64
REPORT_SIZE, REPORT_ID, REPORT_COUNT, USAGE = 0x74, 0x84, 0x94, 0x08
INPUT, FEATURE, COLLECTION, END_COLLECTION = 0x80, 0xB0, 0xA0, b"\xc0"
PHYSICAL, APPLICATION, LOGICAL = 0, 1, 2
DATA_VARIABLE, DATA_ARRAY = 0x02, 0x00
SENSOR_PAGE, SENSOR_COLLECTION = 0x20, 0x0001


def _field_items(field, main):
    numbers = (_item(LOGICAL_MIN, field.minimum) + _item(LOGICAL_MAX, field.maximum)
               + _item(REPORT_SIZE, field.bits) + _item(REPORT_COUNT, 1)
               + _item(UNIT_EXPONENT, field.exponent & 0x0F))  # the 4-bit form real hubs use
    if field.choices is None:
        return _item(USAGE, field.usage) + numbers + _item(main, DATA_VARIABLE)
    # A named array: the property's usage names a Logical collection of its choices.
    choices = b"".join(_item(USAGE, usage) for usage in field.choices)
    return (_item(USAGE, field.usage) + _item(COLLECTION, LOGICAL) + choices + numbers
            + _item(main, DATA_ARRAY) + END_COLLECTION)


def _sensor_items(sensor):
    return (_item(USAGE, sensor.usage) + _item(COLLECTION, PHYSICAL) + _item(REPORT_ID, sensor.report_id)
            + b"".join(_field_items(f, FEATURE) for f in sensor.feature_fields)
            + b"".join(_field_items(f, INPUT) for f in sensor.input_fields)
            + END_COLLECTION)


def report_descriptor(sensors):
    return (_item(USAGE_PAGE, SENSOR_PAGE) + _item(USAGE, SENSOR_COLLECTION) + _item(COLLECTION, APPLICATION)
            + _item(UNIT, 0)  # every field in its usage's default unit
            + b"".join(_sensor_items(s) for s in sensors) + END_COLLECTION)


def wait_until(predicate, timeout, what):
    """Polls `predicate` until it returns something true, and returns that; raises TimeoutError
    naming `what` after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        result = predicate()
        if result:
            return result
        if time.monotonic() >= deadline:
            raise TimeoutError("%s: not within %.1f s" % (what, timeout))
        time.sleep(0.02)


class HidSensorHub:
    """A sensor hub with an accelerometer, an ambient light sensor and a proximity sensor."""

    _count = 0

    def __init__(self, name="orientd emulated sensor hub", sensors=None):
        """`sensors`: the names of the sensors it has (ACCEL, ALS, PROX), all of them by default."""
        HidSensorHub._count += 1
        self.name = name
        # Names this hub's HID device in sysfs (HID_UNIQ), to find its IIO devices among others'.
        self.uniq = "orientd-hub-%d-%d" % (os.getpid(), HidSensorHub._count)
        self._sensors = {name: sensor for name, sensor in _sensors().items() if sensors is None or name in sensors}
        self._by_report_id = {s.report_id: s for s in self._sensors.values()}
        self._lock = threading.Lock()
        self._opened = False
        self._log = []
        self._fd = None
        self._thread = None
        self._stopping = False

    # Life cycle

    def start(self):
        self._fd = os.open("/dev/uhid", os.O_RDWR | os.O_NONBLOCK | os.O_CLOEXEC)
        self._wake_read, self._wake_write = os.pipe()
        self._write(self._create2_event())
        self._thread = threading.Thread(target=self._run, name="uhid " + self.uniq, daemon=True)
        self._thread.start()
        return self

    def destroy(self):
        """The unplug: UHID_DESTROY. The kernel removes the devices before the write returns;
        it resumes each runtime-suspended sensor that was ever used to remove it, and that
        sleeps two of its report intervals (0.2 s at 100 ms, 4 s at 2000 ms)."""
        if self._fd is None:
            return
        self._stopping = True
        self._wake()
        self._thread.join()
        self._write(struct.pack("<I", UHID_DESTROY))
        for fd in (self._fd, self._wake_read, self._wake_write):
            os.close(fd)
        self._fd = None

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.destroy()

    # Readings, in the data fields' units

    def set_acceleration(self, x, y, z):
        """In g, on the sensor's axes, as in_accel_{x,y,z}_raw * in_accel_scale will read them."""
        self._set(ACCEL, (x, y, z))

    def set_illuminance(self, lux):
        self._set(ALS, (lux,))

    def set_proximity(self, near):
        self._set(PROX, (1 if near else 0,))

    def _set(self, name, values):
        sensor = self._sensors[name]
        with self._lock:
            sensor.data = [field.counts(v) for field, v in zip(sensor.input_fields, values)]
        self._wake()

    # What the kernel did

    def reports_sent(self, sensor):
        """Input reports streamed (UHID_INPUT2) for `sensor`, GET_REPORT replies not counted."""
        with self._lock:
            return len(self._sensors[sensor].times)

    def report_times(self, sensor):
        """time.monotonic() of each input report streamed for `sensor`."""
        with self._lock:
            return list(self._sensors[sensor].times)

    def properties(self, sensor):
        """The properties as the kernel last set them (or the hub's defaults)."""
        with self._lock:
            return self._sensors[sensor].properties()

    def opened(self):
        with self._lock:
            return self._opened

    def event_log(self, since=0.0):
        """(time.monotonic(), event, sensor or None, detail) for every uhid event the kernel sent
        from `since` on: start, stop, open, close, get_feature, get_input, set_feature."""
        with self._lock:
            return [entry for entry in self._log if entry[0] >= since]

    # Where the kernel put it

    def hid_device(self, timeout=10.0):
        """This hub's directory under /sys/bus/hid/devices, once the kernel made it."""
        return wait_until(self._find_hid_device, timeout, "the HID device of " + self.uniq)

    def iio_device(self, sensor, timeout=10.0):
        """/sys/bus/iio/devices/iio:deviceN of `sensor` (accel_3d, als, prox), waiting for it."""
        usage = self._sensors[sensor].usage | (SENSOR_PAGE << 16)

        def find():
            hid = self._find_hid_device()
            for platform in _children(hid, "HID-SENSOR-%x." % usage):
                for iio in _children(platform, "iio:device"):
                    return os.path.join("/sys/bus/iio/devices", os.path.basename(iio))
            return None

        return wait_until(find, timeout, "the %s IIO device of %s" % (sensor, self.uniq))

    def _find_hid_device(self):
        root = "/sys/bus/hid/devices"
        for entry in os.listdir(root) if os.path.isdir(root) else ():
            try:
                with open(os.path.join(root, entry, "uevent")) as uevent:
                    if "HID_UNIQ=%s\n" % self.uniq in uevent.read():
                        return os.path.realpath(os.path.join(root, entry))
            except OSError:
                continue  # removed while listed
        return None

    # The uhid side: one thread answers the kernel and streams the reports.

    def _create2_event(self):
        descriptor = report_descriptor(self._sensors.values())
        return struct.pack("<I128s64s64sHHIIII", UHID_CREATE2, self.name.encode(), b"emulated/uhid",
                           self.uniq.encode(), len(descriptor), BUS_VIRTUAL, 0, 0, 0, 0) + descriptor

    def _run(self):
        while not self._stopping:
            ready, _, _ = select.select([self._fd, self._wake_read], [], [], self._seconds_to_next_report())
            if self._wake_read in ready:
                os.read(self._wake_read, 4096)
            if self._fd in ready:
                self._read_events()
            self._send_due_reports()

    def _wake(self):
        if self._fd is not None:
            os.write(self._wake_write, b"!")

    def _write(self, event):
        os.write(self._fd, event)

    def _read_events(self):
        while True:
            try:
                event = os.read(self._fd, UHID_EVENT_SIZE)
            except BlockingIOError:
                return
            self._handle(event)

    def _handle(self, event):
        kind = struct.unpack_from("<I", event)[0]
        with self._lock:
            if kind == UHID_GET_REPORT:
                self._get_report(*struct.unpack_from("<IBB", event, 4))
            elif kind == UHID_SET_REPORT:
                request, number, report_type, size = struct.unpack_from("<IBBH", event, 4)
                self._set_report(request, number, report_type, event[12:12 + size])
            elif kind in (UHID_OPEN, UHID_CLOSE):
                self._opened = kind == UHID_OPEN
                self._note("open" if self._opened else "close")
                self._streaming_may_have_changed()
            elif kind in (UHID_START, UHID_STOP):
                self._note("start" if kind == UHID_START else "stop")
            # UHID_OUTPUT: this hub has no output reports.

    def _get_report(self, request, number, report_type):
        sensor = self._by_report_id.get(number)
        if sensor is None or report_type not in (UHID_FEATURE_REPORT, UHID_INPUT_REPORT):
            reply, error = b"", EIO
        elif report_type == UHID_FEATURE_REPORT:
            reply, error = sensor.feature_report(), 0
            self._note("get_feature", sensor)
        else:
            reply, error = sensor.input_report(), 0
            self._note("get_input", sensor)
        self._write(struct.pack("<IIHH", UHID_GET_REPORT_REPLY, request, error, len(reply)) + reply)

    def _set_report(self, request, number, report_type, report):
        sensor = self._by_report_id.get(number)
        error = EIO
        if sensor and report_type == UHID_FEATURE_REPORT and len(report) == len(sensor.feature_report()):
            before = sensor.interval
            sensor.store_feature(report)
            error = 0
            properties = sensor.properties()
            self._note("set_feature", sensor, "%(power_state)s, %(reporting_state)s, "
                       "%(report_interval_ms)d ms, sensitivity %(change_sensitivity)d" % properties)
            if sensor.next_due is not None and sensor.interval < before:
                sensor.next_due = min(sensor.next_due, time.monotonic() + sensor.interval)
            self._streaming_may_have_changed()
        self._write(struct.pack("<IIH", UHID_SET_REPORT_REPLY, request, error))

    def _streaming_may_have_changed(self):
        """A sensor that starts streaming sends its first report one interval later, whatever
        its sensitivity; one that stops forgets its schedule."""
        now = time.monotonic()
        for sensor in self._sensors.values():
            if not sensor.streaming(self._opened):
                sensor.next_due, sensor.last_sent = None, None
            elif sensor.next_due is None:
                sensor.next_due = now + sensor.interval

    def _seconds_to_next_report(self):
        with self._lock:
            dues = [d for d in (s.due(self._opened) for s in self._sensors.values()) if d is not None]
        return max(0.0, min(dues) - time.monotonic()) if dues else None

    def _send_due_reports(self):
        with self._lock:
            for sensor in self._sensors.values():
                due = sensor.due(self._opened)
                now = time.monotonic()
                if due is None or due > now:
                    continue
                report = sensor.input_report()
                self._write(struct.pack("<IH", UHID_INPUT2, len(report)) + report)
                sensor.times.append(time.monotonic())
                sensor.last_sent = list(sensor.data)
                # Keep the cadence unless a report waited (on the sensitivity) an interval or more.
                sensor.next_due = (due if now - due < sensor.interval else now) + sensor.interval

    def _note(self, event, sensor=None, detail=""):
        self._log.append((time.monotonic(), event, sensor.name if sensor else None, detail))


def _children(directory, prefix):
    try:
        return sorted(os.path.join(directory, e) for e in os.listdir(directory) if e.startswith(prefix))
    except (OSError, TypeError):  # gone, or not there yet (None)
        return []
