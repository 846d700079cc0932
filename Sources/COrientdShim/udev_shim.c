#include "orientd_shim.h"

#include <errno.h>
#include <libudev.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* An attribute as udev's $attr{} gives it: trailing whitespace removed; "" when absent. */
static void udev_attribute(struct udev_device *device, const char *name, char *buffer, size_t length)
{
    const char *value = device ? udev_device_get_sysattr_value(device, name) : NULL;
    snprintf(buffer, length, "%s", value ? value : "");
    size_t end = strlen(buffer);
    while (end > 0 && (buffer[end - 1] == '\n' || buffer[end - 1] == ' ' || buffer[end - 1] == '\t'))
        buffer[--end] = '\0';
}

static int is_sensor_bus(const char *subsystem)
{
    return subsystem && (strcmp(subsystem, "usb") == 0 || strcmp(subsystem, "i2c") == 0 || strcmp(subsystem, "platform") == 0);
}

ssize_t orientd_udev_sensor_hwdb_match(const char *sysname, char *buffer, size_t length)
{
    struct udev *udev = udev_new();
    if (!udev)
        return -ENOMEM;
    ssize_t result = -ENOENT;
    struct udev_device *device = udev_device_new_from_subsystem_sysname(udev, "iio", sysname);
    if (device) {
        // SUBSYSTEMS=="usb|i2c|platform" selects the first such device up the chain; $attr{}
        // reads the device's own attribute first, then that parent's.
        struct udev_device *parent = device;
        while (parent && !is_sensor_bus(udev_device_get_subsystem(parent)))
            parent = udev_device_get_parent(parent);
        if (parent) {
            char label[256], modalias[512], dmi_modalias[1024];
            udev_attribute(device, "label", label, sizeof label);
            udev_attribute(device, "modalias", modalias, sizeof modalias);
            if (modalias[0] == '\0')
                udev_attribute(parent, "modalias", modalias, sizeof modalias);
            struct udev_device *dmi = udev_device_new_from_subsystem_sysname(udev, "dmi", "id");
            udev_attribute(dmi, "modalias", dmi_modalias, sizeof dmi_modalias);
            if (dmi)
                udev_device_unref(dmi);
            int written = label[0] != '\0'
                ? snprintf(buffer, length, "sensor:%s:modalias:%s:%s", label, modalias, dmi_modalias)
                : snprintf(buffer, length, "sensor:modalias:%s:%s", modalias, dmi_modalias);
            result = (written < 0 || (size_t)written >= length) ? -ENAMETOOLONG : written;
        } else {
            result = -ENODEV;
        }
        udev_device_unref(device);
    }
    udev_unref(udev);
    return result;
}

ssize_t orientd_udev_device_syspath(const char *subsystem, const char *sysname, char *buffer, size_t length)
{
    struct udev *udev = udev_new();
    if (!udev)
        return -ENOMEM;
    ssize_t result = -ENOENT;
    struct udev_device *device = udev_device_new_from_subsystem_sysname(udev, subsystem, sysname);
    if (device) {
        const char *path = udev_device_get_syspath(device);
        if (path) {
            int written = snprintf(buffer, length, "%s", path);
            result = (written < 0 || (size_t)written >= length) ? -ENAMETOOLONG : written;
        }
        udev_device_unref(device);
    }
    udev_unref(udev);
    return result;
}

struct orientd_udev_monitor {
    struct udev *udev;
    struct udev_monitor *monitor;
    char subsystem[32];
};

orientd_udev_monitor *orientd_udev_monitor_open(const char *subsystem, int *error)
{
    orientd_udev_monitor *result = calloc(1, sizeof *result);
    if (!result) {
        *error = ENOMEM;
        return NULL;
    }
    result->udev = udev_new();
    if (result->udev)
        result->monitor = udev_monitor_new_from_netlink(result->udev, "udev");
    // The kernel drops other subsystems' events before they wake orientd (a socket filter); the
    // subsystem is checked again on receipt all the same.
    snprintf(result->subsystem, sizeof result->subsystem, "%s", subsystem);
    int status = result->monitor ? udev_monitor_filter_add_match_subsystem_devtype(result->monitor, subsystem, NULL) : -ENOMEM;
    if (status >= 0)
        status = udev_monitor_enable_receiving(result->monitor);
    if (!result->monitor || status < 0) {
        *error = status < 0 ? -status : (errno ? errno : ENOMEM);
        orientd_udev_monitor_close(result);
        return NULL;
    }
    return result;
}

int orientd_udev_monitor_fd(const orientd_udev_monitor *monitor)
{
    return udev_monitor_get_fd(monitor->monitor);
}

int orientd_udev_monitor_receive(orientd_udev_monitor *monitor, char *action, size_t action_length,
                                 char *sysname, size_t sysname_length)
{
    struct udev_device *device = udev_monitor_receive_device(monitor->monitor);
    if (!device)
        return 0;
    const char *device_subsystem = udev_device_get_subsystem(device);
    if (!device_subsystem || strcmp(device_subsystem, monitor->subsystem) != 0) {
        udev_device_unref(device);
        action[0] = sysname[0] = '\0';
        return 1;
    }
    const char *device_action = udev_device_get_action(device);
    const char *device_sysname = udev_device_get_sysname(device);
    snprintf(action, action_length, "%s", device_action ? device_action : "");
    snprintf(sysname, sysname_length, "%s", device_sysname ? device_sysname : "");
    udev_device_unref(device);
    return 1;
}

void orientd_udev_monitor_close(orientd_udev_monitor *monitor)
{
    if (!monitor)
        return;
    if (monitor->monitor)
        udev_monitor_unref(monitor->monitor);
    if (monitor->udev)
        udev_unref(monitor->udev);
    free(monitor);
}
