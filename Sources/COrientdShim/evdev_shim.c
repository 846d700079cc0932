// Input-subsystem sensors: an accelerometer (ABS_X, ABS_Y, ABS_Z: lis3lv02d and older phone and
// tablet drivers) and a proximity switch (SW_FRONT_PROXIMITY from gpio-keys). Each read opens the
// device node, asks the kernel for the current values and closes it again, with exactly the ioctls
// iio-sensor-proxy makes (three EVIOCGABS, or one EVIOCGSW): a recording of its ioctls replays
// against orientd, and a polled input driver (lis3lv02d) polls its chip only while it is open.
// What the device can do is read from sysfs (capabilities/abs, capabilities/sw), not asked of it.
#include "orientd_shim.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/input.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

// An ioctl's error. ENOENT is no answer of the kernel's input core (an unplugged device answers
// ENODEV): it comes from an emulation that lacks the ioctl, and must not read as the node being
// gone, which only open's ENOENT means.
static int ioctl_error(void)
{
    return errno == ENOENT ? -EIO : -errno;
}

int orientd_evdev_read_axes_at(const char *devnode, int32_t values[3], int32_t *resolution)
{
    // The node udev names under /dev, which only root creates: followed as udev's own symlinks are.
    int fd = open(devnode, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return -errno;
    for (int axis = 0; axis < 3; axis++) {
        struct input_absinfo info;
        memset(&info, 0, sizeof info);
        if (ioctl(fd, EVIOCGABS(ABS_X + axis), &info) < 0) {
            int error = ioctl_error();
            close(fd);
            return error;
        }
        values[axis] = info.value;
        if (axis == 0)
            *resolution = info.resolution;
    }
    close(fd);
    return 0;
}

int orientd_evdev_proximity_at(const char *devnode)
{
    int fd = open(devnode, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return -errno;
    // As many bytes as the kernel's switch bitmap in longs, as iio-sensor-proxy asks for it.
    unsigned long state[(SW_CNT + 8 * sizeof(long) - 1) / (8 * sizeof(long))];
    memset(state, 0, sizeof state);
    int result = ioctl(fd, EVIOCGSW(sizeof state), state) < 0 ? ioctl_error() : 0;
    close(fd);
    if (result < 0)
        return result;
    const unsigned bits = 8 * sizeof(long);
    return (int)((state[SW_FRONT_PROXIMITY / bits] >> (SW_FRONT_PROXIMITY % bits)) & 1);
}
