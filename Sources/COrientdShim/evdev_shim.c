// Input-subsystem sensors through libevdev: an accelerometer (ABS_X, ABS_Y, ABS_Z: lis3lv02d and
// older phone and tablet drivers) and a proximity switch (SW_FRONT_PROXIMITY from gpio-keys). The
// device is opened only while it is read; each read takes the kernel's current values
// (EVIOCGABS, EVIOCGSW) after draining the events queued meanwhile, so a device that reports
// only changes, or none while nobody reads, is still read right.
#include "orientd_shim.h"

#include <errno.h>
#include <fcntl.h>
#include <libevdev/libevdev.h>
#include <linux/input.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

struct orientd_evdev {
    int fd;
    struct libevdev *device;
};

orientd_evdev *orientd_evdev_open(const char *devnode, int *error)
{
    // The node udev names under /dev, which only root creates: followed as udev's own symlinks are.
    int fd = open(devnode, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        *error = errno;
        return NULL;
    }
    struct libevdev *device = NULL;
    int status = libevdev_new_from_fd(fd, &device);
    orientd_evdev *result = status == 0 ? calloc(1, sizeof *result) : NULL;
    if (!result) {
        *error = status < 0 ? -status : ENOMEM;
        if (device)
            libevdev_free(device);
        close(fd);
        return NULL;
    }
    result->fd = fd;
    result->device = device;
    return result;
}

void orientd_evdev_close(orientd_evdev *device)
{
    if (!device)
        return;
    libevdev_free(device->device);
    close(device->fd);
    free(device);
}

const char *orientd_evdev_name(const orientd_evdev *device)
{
    return libevdev_get_name(device->device);
}

bool orientd_evdev_is_accelerometer(const orientd_evdev *device)
{
    return libevdev_has_event_code(device->device, EV_ABS, ABS_X)
        && libevdev_has_event_code(device->device, EV_ABS, ABS_Y)
        && libevdev_has_event_code(device->device, EV_ABS, ABS_Z);
}

int orientd_evdev_resolution(const orientd_evdev *device)
{
    const struct input_absinfo *info = libevdev_get_abs_info(device->device, ABS_X);
    return info ? info->resolution : 0;
}

bool orientd_evdev_has_proximity_switch(const orientd_evdev *device)
{
    return libevdev_has_event_code(device->device, EV_SW, SW_FRONT_PROXIMITY);
}

// Empties the kernel's queue of events for this descriptor: the values are asked for afterwards.
static void drain(const orientd_evdev *device)
{
    struct input_event events[64];
    while (read(device->fd, events, sizeof events) > 0) {
    }
}

int orientd_evdev_read_axes(const orientd_evdev *device, int32_t values[3])
{
    drain(device);
    for (int axis = 0; axis < 3; axis++) {
        struct input_absinfo info;
        memset(&info, 0, sizeof info);
        if (ioctl(device->fd, EVIOCGABS(ABS_X + axis), &info) < 0)
            return -errno;
        values[axis] = info.value;
    }
    return 0;
}

static int proximity_of(int fd)
{
    unsigned char state[(SW_CNT + 7) / 8];
    memset(state, 0, sizeof state);
    if (ioctl(fd, EVIOCGSW(sizeof state), state) < 0)
        return -errno;
    return (state[SW_FRONT_PROXIMITY / 8] >> (SW_FRONT_PROXIMITY % 8)) & 1;
}

int orientd_evdev_proximity_at(const char *devnode)
{
    int fd = open(devnode, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return -errno;
    int result = proximity_of(fd);
    close(fd);
    return result;
}
