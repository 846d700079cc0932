"""Debian's own kernel accelerometer drivers, probing on i2c-stub register files.

In the real-kernel guest (scripts/kernel-vm) a test makes an I2C accelerometer that the real
driver binds to, and sets the acceleration the driver then reads:

    chip = I2cAccelerometer.create('bmc150')   # loads modules, instantiates, waits for IIO
    chip.iio_dir                               # /sys/bus/iio/devices/iio:deviceK
    chip.set_acceleration(0, 0, 1)             # in g, along the chip's own axes
    chip.unbind(); chip.bind()                 # through the driver's sysfs unbind/bind
    chip.delete()                              # delete_device: the unplug

i2c-stub (drivers/i2c/i2c-stub.c) is an SMBus adapter whose "chips" are 256 registers of
memory, one per address given at load. It answers byte, word and I2C-block transfers (the
regmap-over-SMBus bus the regmap drivers get), so a driver probes if the registers it checks
hold the right values; user space writes those through /dev/i2c-N.

With no IRQ the drivers register no trigger; writing 1 to buffer/enable (scan elements on)
fails with EINVAL, except on bmc150, which takes it in its FIFO mode (the adapter can read
I2C blocks) and then answers raw reads with EBUSY until it is disabled.

Sign convention: set_acceleration(x, y, z) is the specific force the chip measures, in g,
along its own axes, as in_accel_{x,y,z}_raw * in_accel_scale report it in m/s^2 (that is
x * 9.80665 for x). A chip lying face up at rest reads (0, 0, +1). The stub devices have no
firmware node, so no mount matrix applies (the drivers show the identity).

Standard library only; one i2c-stub load serves every chip in CHIPS (each has its own address),
so several chips can live in one guest at once.
"""

import array
import fcntl
import os
import struct
import time

G = 9.80665

# Each chip: the driver module and the name its i2c_device_id table has (given to new_device),
# the registers its probe checks, where X, Y, Z are (three 16-bit words from `data`, a `bits`
# wide two's-complement value left-justified in each, in `order` byte order), and the counts
# per g at the range the driver sets at probe. Facts from the named kernel source files.
CHIPS = {
    'bmc150': dict(
        device='bmc150_accel',
        module='bmc150-accel-i2c',
        address=0x10,
        source='drivers/iio/accel/bmc150-accel-core.c, bmc150-accel-i2c.c',
        # CHIP_ID 0x00 must be 0xFA. The driver writes the soft reset 0x14=0xB6 (a no-op
        # here), PMU_LPW 0x11, PMU_BW 0x10, and PMU_RANGE 0x0F=0x05: +-4 g.
        registers={0x00: 0xFA},
        data=0x02, order='little', bits=12,
        counts_per_g=512,           # 12 bits over +-4 g; the driver's scale is 0.019154
    ),
    'kxcjk1013': dict(
        device='kxcjk1013',
        module='kxcjk-1013',
        address=0x0E,
        source='drivers/iio/accel/kxcjk-1013.c',
        # WHO_AM_I 0x0F is read and logged, not checked (0x11 is the part's). The driver
        # sets CTRL1 0x1B: RES (12 bits) and GSEL0: +-4 g. It reads each axis as an SMBus
        # word, so the stub's word view must match its bytes (see _Smbus.write_registers).
        registers={0x0F: 0x11},
        data=0x06, order='little', bits=12,
        counts_per_g=512,           # scale 0.019163
    ),
    'mxc4005': dict(
        device='mxc4005',
        module='mxc4005',
        address=0x15,
        source='drivers/iio/accel/mxc4005.c',
        # DEVICE_ID 0x0E is read, not checked. The driver does not set the range: it reads
        # CONTROL 0x0D bits 6:5 at every scale read, and the zeroed register says +-2 g.
        registers={},
        data=0x03, order='big', bits=12,
        counts_per_g=1024,          # scale 0.009582
    ),
    'mma8452': dict(
        device='mma8452',
        module='mma8452',
        address=0x1C,
        source='drivers/iio/accel/mma8452.c',
        # WHO_AM_I 0x0D must be 0x2A. Every raw read polls STATUS 0x00 until ZYXDR bits 2:0
        # are set. The driver sets DATA_CFG 0x0E=0x00: +-2 g.
        registers={0x0D: 0x2A, 0x00: 0x0F},
        # Its probe writes RST (0x40) to CTRL_REG2 0x2B and polls for the chip to clear it
        # (10 reads in 1-2 ms). See self_clearing in load_stub.
        self_clearing=(0x2B, 0x40),
        data=0x01, order='big', bits=12,
        counts_per_g=1024,          # scale 0.009577
    ),
    'lis3dh': dict(
        device='lis3dh',
        module='st_accel_i2c',
        address=0x18,
        source='drivers/iio/accel/st_accel_core.c, st_accel_i2c.c, '
               'drivers/iio/common/st_sensors/st_sensors_core.c, st_sensors_i2c.c',
        # WHO_AM_I 0x0F should be 0x33 (6.1 only warns of a mismatch). The driver sets
        # CTRL_REG4 0x23 FS=00: +-2 g, 1 mg a count, and ODR 1 Hz, so each raw read powers
        # the chip up and sleeps bootime 2 / ODR = 2 s (sampling_frequency 100 makes it 20 ms).
        # Its regmap sets bit 7 (the ST auto-increment bit) in every register it reads, so
        # reads of R come from R|0x80 (writes go to R): registers are written at both.
        registers={0x0F: 0x33},
        read_flag=0x80,
        data=0x28, order='little', bits=12,
        counts_per_g=1000,          # scale 0.009806
    ),
}

STUB_ADAPTER_NAME = 'SMBus stub driver'
PROBE_TIMEOUT = 30.0                # seconds; TCG is slow and some probes sleep

# <linux/i2c-dev.h>, <linux/i2c.h>
I2C_SLAVE_FORCE = 0x0706
I2C_SMBUS = 0x0720
I2C_SMBUS_WRITE, I2C_SMBUS_READ = 0, 1
I2C_SMBUS_BYTE_DATA, I2C_SMBUS_WORD_DATA = 2, 3


class I2cAccelerometer:
    """One stub chip with a real driver bound to it."""

    def __init__(self, chip, spec, adapter):
        self.chip = chip            # key in CHIPS
        self.spec = spec
        self.adapter = adapter      # N of /sys/bus/i2c/devices/i2c-N
        self.address = spec['address']
        self.client = '%d-%04x' % (adapter, self.address)
        self.client_dir = '/sys/bus/i2c/devices/' + self.client
        self.driver = None          # the i2c driver's name, for bind/unbind
        self.iio_dir = None
        self.name = None            # the IIO device's name

    @classmethod
    def create(cls, chip):
        """Loads the modules, fills the probe's registers, instantiates the chip and waits for
        its IIO device."""
        spec = CHIPS[chip]
        adapter = load_stub()
        modprobe('i2c-dev')
        modprobe(spec['module'])
        accelerometer = cls(chip, spec, adapter)
        accelerometer._instantiate()
        return accelerometer

    def set_acceleration(self, x, y, z):
        """Sets what the chip measures, in g along its own axes (see the module's doc).

        Axis by axis: a read racing with it may see some axes old, as reads through sysfs,
        one axis at a time, may anyway."""
        spec = self.spec
        data = b''.join(encode_axis(g * spec['counts_per_g'], spec['bits'], spec['order'])
                        for g in (x, y, z))
        with _Smbus(self.adapter, self.address) as bus:
            self._write(bus, spec['data'], list(data))

    def delete(self):
        """Removes the chip with delete_device (the unplug); its IIO device vanishes."""
        write_sysfs('/sys/bus/i2c/devices/i2c-%d/delete_device' % self.adapter,
                    '0x%02x' % self.address)
        self._wait_gone()

    def unbind(self):
        write_sysfs('/sys/bus/i2c/drivers/%s/unbind' % self.driver, self.client)
        self._wait_gone()

    def bind(self):
        self._probe(lambda: write_sysfs('/sys/bus/i2c/drivers/%s/bind' % self.driver,
                                        self.client))

    def read(self, attribute):
        with open(os.path.join(self.iio_dir, attribute)) as f:
            return f.read().strip()

    def _instantiate(self):
        if os.path.exists(self.client_dir):
            raise RuntimeError('%s: %s is already instantiated' % (self.chip, self.client))
        with _Smbus(self.adapter, self.address) as bus:
            bus.clear()
            for register, value in self.spec['registers'].items():
                self._write(bus, register, [value])
        self._probe(lambda: write_sysfs('/sys/bus/i2c/devices/i2c-%d/new_device' % self.adapter,
                                        '%s 0x%02x' % (self.spec['device'], self.address)))
        self.driver = os.path.basename(os.readlink(self.client_dir + '/driver'))

    def _write(self, bus, register, values):
        """Writes registers where the driver reads them."""
        bus.write_registers(register, values)
        read_flag = self.spec.get('read_flag', 0)
        if read_flag:
            bus.write_registers(register | read_flag, values)

    def _probe(self, start):
        """Runs start() (new_device or bind) and waits for the IIO device under the client."""
        self._reset_self_clearing()
        start()
        self.iio_dir = wait_for(self._find_iio_dir, PROBE_TIMEOUT,
                                lambda: '%s: no IIO device under %s\n%s'
                                % (self.chip, self.client_dir, kernel_log_tail()))
        self._reset_self_clearing()
        self.name = self.read('name')

    def _reset_self_clearing(self):
        """Zeroes a self-clearing register (see load_stub) in both banks and leaves bank 0
        selected: a byte write lands in the selected bank, then selects by its bits, so the
        first zero lands wherever and selects bank 0, the second zeroes bank 0."""
        if 'self_clearing' in self.spec:
            register = self.spec['self_clearing'][0]
            with _Smbus(self.adapter, self.address) as bus:
                bus.write_byte(register, 0)
                bus.write_byte(register, 0)

    def _find_iio_dir(self):
        try:
            entries = os.listdir(self.client_dir)
        except FileNotFoundError:
            return None
        for entry in entries:
            if entry.startswith('iio:device'):
                return '/sys/bus/iio/devices/' + entry
        return None

    def _wait_gone(self):
        gone = self.iio_dir
        wait_for(lambda: not os.path.exists(gone), PROBE_TIMEOUT,
                 lambda: '%s: %s is still there' % (self.chip, gone))
        self.iio_dir = None


def encode_axis(counts, bits, order):
    """A value in counts as the chip's register pair: two's complement, left-justified in 16
    bits (the drivers shift it back down by 16 - bits), clamped to the chip's range."""
    limit = 1 << (bits - 1)
    counts = max(-limit, min(limit - 1, round(counts)))
    return ((counts << (16 - bits)) & 0xFFFF).to_bytes(2, order)


def load_stub():
    """Loads i2c-stub with every chip's address (once per guest) and returns its adapter's
    number.

    A register whose bits the chip clears by itself (a reset bit the probe polls) is made a
    bank register of i2c-stub, banking only itself: a byte write to it selects bank 1 if it
    sets the bits, else bank 0 (the plain register), and while bank 1 is selected reads come
    from bank 1's copy of the register, which stays zero. So once the driver sets the bits
    they read back clear, at once and every time. (I2C-block transfers ignore banks; the
    banked registers here are read by byte.)"""
    specs = sorted(CHIPS.values(), key=lambda spec: spec['address'])
    parameters = {'chip_addr': [spec['address'] for spec in specs]}
    clearing = [spec.get('self_clearing', (0, 0)) for spec in specs]
    if any(register for register, _ in clearing):
        parameters.update(bank_reg=[register for register, _ in clearing],
                          bank_mask=[bits for _, bits in clearing],
                          bank_start=[register for register, _ in clearing],
                          bank_end=[register for register, _ in clearing])
    if not os.path.exists('/sys/module/i2c_stub'):
        modprobe('i2c-stub', *('%s=%s' % (name, ','.join('0x%02x' % v for v in values))
                               for name, values in parameters.items()))
    for name, values in parameters.items():
        with open('/sys/module/i2c_stub/parameters/' + name) as f:
            loaded = [int(v) for v in f.read().strip().split(',')]
        if loaded[:len(values)] != values:
            raise RuntimeError('i2c-stub is loaded with %s=%s, not %s' % (name, loaded, values))
    return wait_for(find_stub_adapter, PROBE_TIMEOUT, lambda: 'no i2c-stub adapter')


def find_stub_adapter():
    for entry in os.listdir('/sys/bus/i2c/devices'):
        if entry.startswith('i2c-'):
            with open('/sys/bus/i2c/devices/%s/name' % entry) as f:
                if f.read().strip() == STUB_ADAPTER_NAME:
                    return int(entry[4:])
    return None


def modprobe(module, *parameters):
    # The guest's PATH may lack /sbin.
    program = '/sbin/modprobe' if os.path.exists('/sbin/modprobe') else 'modprobe'
    status = os.spawnvp(os.P_WAIT, program, [program, module, *parameters])
    if status != 0:
        raise RuntimeError('modprobe %s failed (%d)' % (module, status))


def write_sysfs(path, text):
    fd = os.open(path, os.O_WRONLY)
    try:
        os.write(fd, text.encode())
    finally:
        os.close(fd)


def wait_for(probe, timeout, message):
    """Polls probe() until it returns something but None or False and returns that; raises
    after timeout."""
    deadline = time.monotonic() + timeout
    while True:
        value = probe()
        if value is not None and value is not False:
            return value
        if time.monotonic() > deadline:
            raise TimeoutError(message())
        time.sleep(0.02)


def kernel_log_tail(lines=15):
    """The kernel log's last lines (for a probe's error messages)."""
    fd = os.open('/dev/kmsg', os.O_RDONLY | os.O_NONBLOCK)
    records = []
    try:
        while True:
            try:
                record = os.read(fd, 8192).decode(errors='replace')
            except BlockingIOError:
                break
            except OSError:         # EPIPE: a record was overwritten while we read
                continue
            records.append(record.split(';', 1)[-1].split('\n', 1)[0])
    finally:
        os.close(fd)
    return '\n'.join('kernel: ' + r for r in records[-lines:])


class _Smbus:
    """SMBus transfers to one address of /dev/i2c-N (the I2C_SMBUS ioctl)."""

    def __init__(self, adapter, address):
        path = '/dev/i2c-%d' % adapter
        wait_for(lambda: os.path.exists(path), PROBE_TIMEOUT, lambda: 'no ' + path)
        self.fd = os.open(path, os.O_RDWR)
        # FORCE: the address is (or will be) bound to a driver, which plain I2C_SLAVE refuses.
        fcntl.ioctl(self.fd, I2C_SLAVE_FORCE, address)

    def __enter__(self):
        return self

    def __exit__(self, *_):
        os.close(self.fd)

    def _transfer(self, read_write, command, size, data=b''):
        # union i2c_smbus_data is 34 bytes; the ioctl's struct points to it, so it lives in
        # an array whose address we can take.
        buffer = array.array('B', data.ljust(34, b'\0'))
        request = struct.pack('@BBIP', read_write, command, size, buffer.buffer_info()[0])
        fcntl.ioctl(self.fd, I2C_SMBUS, request)
        return buffer.tobytes()

    def read_byte(self, register):
        return self._transfer(I2C_SMBUS_READ, register, I2C_SMBUS_BYTE_DATA)[0]

    def write_byte(self, register, value):
        self._transfer(I2C_SMBUS_WRITE, register, I2C_SMBUS_BYTE_DATA, bytes([value]))

    def write_word(self, register, value):
        self._transfer(I2C_SMBUS_WRITE, register, I2C_SMBUS_WORD_DATA,
                       value.to_bytes(2, 'little'))

    def clear(self):
        for register in range(256):
            self.write_word(register, 0)

    def write_registers(self, start, values):
        """Writes values to registers start, start + 1, ...

        i2c-stub keeps a 16-bit word per register: byte and I2C-block reads see its low byte,
        an SMBus word read of register R sees the whole word, where a real chip would give R
        and R + 1. So each register is written as a word whose high byte is the next
        register's value, the one before the block included."""
        end = start + len(values)
        following = list(values[1:]) + ([self.read_byte(end)] if end < 256 else [0])
        if start > 0:
            self.write_word(start - 1, self.read_byte(start - 1) | values[0] << 8)
        for offset, (low, high) in enumerate(zip(values, following)):
            self.write_word(start + offset, low | high << 8)
