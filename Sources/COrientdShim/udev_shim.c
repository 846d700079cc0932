#include "orientd_shim.h"

#include <errno.h>
#include <libudev.h>
#include <stdio.h>

ssize_t orientd_udev_device_property(const char *subsystem, const char *sysname,
                                     const char *property, char *buffer, size_t length)
{
    struct udev *udev = udev_new();
    if (!udev)
        return -ENOMEM;
    ssize_t result = -ENOENT;
    struct udev_device *device = udev_device_new_from_subsystem_sysname(udev, subsystem, sysname);
    if (device) {
        const char *value = udev_device_get_property_value(device, property);
        if (value) {
            int written = snprintf(buffer, length, "%s", value);
            result = (written < 0 || (size_t)written >= length) ? -ENAMETOOLONG : written;
        }
        udev_device_unref(device);
    }
    udev_unref(udev);
    return result;
}
