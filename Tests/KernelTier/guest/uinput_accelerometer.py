"""An input-subsystem accelerometer made with /dev/uinput, as lis3lv02d and older phone drivers
are: ABS_X, ABS_Y, ABS_Z with INPUT_PROP_ACCELEROMETER, a resolution in counts per g (evdev's
ABI for accelerometers). udev's input_id builtin gives it ID_INPUT_ACCELEROMETER=1, which is how
orientd (and iio-sensor-proxy) find it, so systemd-udevd runs in the guest for it.

    accelerometer = UinputAccelerometer.create()
    accelerometer.set_acceleration(0, -1, 0)   # in g: the values EVIOCGABS then reads
"""
import fcntl
import os
import struct
import subprocess
import time

COUNTS_PER_G = 1024
EV_SYN, EV_ABS = 0x00, 0x03
SYN_REPORT = 0
ABS_X, ABS_Y, ABS_Z = 0x00, 0x01, 0x02
INPUT_PROP_ACCELEROMETER = 0x06
BUS_VIRTUAL = 0x06


def _iow(number, size):
    return (1 << 30) | (size << 16) | (ord("U") << 8) | number


UI_DEV_CREATE = (ord("U") << 8) | 1
UI_DEV_DESTROY = (ord("U") << 8) | 2
UI_DEV_SETUP = _iow(3, 92)        # struct uinput_setup: input_id, name[80], ff_effects_max
UI_ABS_SETUP = _iow(4, 28)        # struct uinput_abs_setup: code, padding, input_absinfo
UI_SET_EVBIT = _iow(100, 4)
UI_SET_ABSBIT = _iow(103, 4)
UI_SET_PROPBIT = _iow(110, 4)


def start_udevd():
    """systemd-udevd, once: it names the device an accelerometer (and tells orientd of hotplug)."""
    if subprocess.run(["pidof", "systemd-udevd"], capture_output=True).returncode == 0:
        return
    subprocess.run(["/lib/systemd/systemd-udevd", "--daemon"], check=True)
    subprocess.run(["udevadm", "settle", "--timeout=10"], check=False)


class UinputAccelerometer:
    name = "orientd-tier accelerometer"

    def __init__(self):
        self.descriptor = None
        self.values = (0, -COUNTS_PER_G, 0)

    @classmethod
    def create(cls):
        subprocess.run(["modprobe", "uinput"], check=True)
        start_udevd()
        accelerometer = cls()
        accelerometer.plug()
        return accelerometer

    def plug(self):
        descriptor = os.open("/dev/uinput", os.O_WRONLY | os.O_NONBLOCK)
        fcntl.ioctl(descriptor, UI_SET_EVBIT, EV_ABS)
        for axis in (ABS_X, ABS_Y, ABS_Z):
            fcntl.ioctl(descriptor, UI_SET_ABSBIT, axis)
        fcntl.ioctl(descriptor, UI_SET_PROPBIT, INPUT_PROP_ACCELEROMETER)
        setup = struct.pack("HHHH80sI", BUS_VIRTUAL, 0x1234, 0x5678, 1, self.name.encode(), 0)
        fcntl.ioctl(descriptor, UI_DEV_SETUP, setup)
        for axis, value in zip((ABS_X, ABS_Y, ABS_Z), self.values):
            absinfo = struct.pack("HHiiiiii", axis, 0, value, -2 * COUNTS_PER_G, 2 * COUNTS_PER_G, 0, 0, COUNTS_PER_G)
            fcntl.ioctl(descriptor, UI_ABS_SETUP, absinfo)
        fcntl.ioctl(descriptor, UI_DEV_CREATE)
        self.descriptor = descriptor
        subprocess.run(["udevadm", "settle", "--timeout=10"], check=False)

    def set_acceleration(self, x, y, z):
        self.values = tuple(round(value * COUNTS_PER_G) for value in (x, y, z))
        if self.descriptor is None:
            return
        now = time.time()
        seconds, microseconds = int(now), int((now % 1) * 1e6)
        events = b"".join(struct.pack("llHHi", seconds, microseconds, EV_ABS, axis, value)
                          for axis, value in zip((ABS_X, ABS_Y, ABS_Z), self.values))
        events += struct.pack("llHHi", seconds, microseconds, EV_SYN, SYN_REPORT, 0)
        os.write(self.descriptor, events)

    def unplug(self):
        fcntl.ioctl(self.descriptor, UI_DEV_DESTROY)
        os.close(self.descriptor)
        self.descriptor = None

    def replug(self):
        self.plug()
