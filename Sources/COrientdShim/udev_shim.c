#include "orientd_shim.h"

#include <errno.h>
#include <libudev.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Finds the device and copies into `buffer` what `read` gives of it (with `name`): -ENOENT when
 * there is no such device or value, -ENAMETOOLONG when it does not fit. */
static ssize_t copy_from_device(const char *subsystem, const char *sysname,
                                const char *(*read)(struct udev_device *, const char *), const char *name,
                                char *buffer, size_t length)
{
    struct udev *udev = udev_new();
    if (!udev)
        return -ENOMEM;
    ssize_t result = -ENOENT;
    struct udev_device *device = udev_device_new_from_subsystem_sysname(udev, subsystem, sysname);
    if (device) {
        const char *value = read(device, name);
        if (value) {
            int written = snprintf(buffer, length, "%s", value);
            result = (written < 0 || (size_t)written >= length) ? -ENAMETOOLONG : written;
        }
        udev_device_unref(device);
    }
    udev_unref(udev);
    return result;
}

static const char *syspath_of(struct udev_device *device, const char *unused)
{
    (void)unused;
    return udev_device_get_syspath(device);
}

ssize_t orientd_udev_device_property(const char *subsystem, const char *sysname,
                                     const char *property, char *buffer, size_t length)
{
    return copy_from_device(subsystem, sysname, udev_device_get_property_value, property, buffer, length);
}

int orientd_udev_device_is_initialized(const char *subsystem, const char *sysname)
{
    struct udev *udev = udev_new();
    if (!udev)
        return -ENOMEM;
    int result = -ENOENT;
    struct udev_device *device = udev_device_new_from_subsystem_sysname(udev, subsystem, sysname);
    if (device) {
        result = udev_device_get_is_initialized(device) > 0;
        udev_device_unref(device);
    }
    udev_unref(udev);
    return result;
}

int orientd_udev_input_devices(const char *property, char *buffer, size_t length)
{
    struct udev *udev = udev_new();
    if (!udev)
        return -ENOMEM;
    struct udev_enumerate *enumerate = udev_enumerate_new(udev);
    int count = enumerate ? 0 : -ENOMEM;
    if (enumerate && udev_enumerate_add_match_subsystem(enumerate, "input") >= 0
        && udev_enumerate_add_match_property(enumerate, property, "1") >= 0
        && udev_enumerate_scan_devices(enumerate) >= 0) {
        size_t used = 0;
        struct udev_list_entry *entry;
        udev_list_entry_foreach(entry, udev_enumerate_get_list_entry(enumerate)) {
            struct udev_device *device = udev_device_new_from_syspath(udev, udev_list_entry_get_name(entry));
            const char *node = device ? udev_device_get_devnode(device) : NULL;
            // The event device, not its parent (which has the property too, and no node).
            if (node && strstr(node, "/event")) {
                size_t size = strlen(node) + 1;
                if (used + size <= length) {
                    memcpy(buffer + used, node, size);
                    used += size;
                    count++;
                }
            }
            if (device)
                udev_device_unref(device);
        }
    }
    if (enumerate)
        udev_enumerate_unref(enumerate);
    udev_unref(udev);
    return count;
}

/* The length of the valid UTF-8 sequence of two to four bytes at `text`, else 0. */
static size_t utf8_sequence_length(const unsigned char *text)
{
    size_t length;
    unsigned int code;
    if (text[0] >= 0xC2 && text[0] <= 0xDF) {
        length = 2;
        code = text[0] & 0x1F;
    } else if (text[0] >= 0xE0 && text[0] <= 0xEF) {
        length = 3;
        code = text[0] & 0x0F;
    } else if (text[0] >= 0xF0 && text[0] <= 0xF4) {
        length = 4;
        code = text[0] & 0x07;
    } else {
        return 0;
    }
    for (size_t i = 1; i < length; i++) {
        if ((text[i] & 0xC0) != 0x80)
            return 0;
        code = (code << 6) | (text[i] & 0x3F);
    }
    static const unsigned int smallest[] = {0, 0, 0x80, 0x800, 0x10000};
    if (code < smallest[length] || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF))
        return 0;
    return length;
}

static int is_kept_as_is(unsigned char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c != '\0' && strchr("#+-.:=@_/ $%?,", c));
}

/* An attribute as udev substitutes $attr{} into a rule's string (udev's own rules, not the
 * kernel's bytes): at most 511 bytes, trailing whitespace removed, then every byte that is not a
 * letter, digit or one of "#+-.:=@_/ $%?,", nor part of a "\x" escape or of valid UTF-8, replaced:
 * other whitespace by a space, anything else by '_'. A DMI string "bvrN2HET58W(1.41)" is looked
 * up as "bvrN2HET58W_1.41_", a device tree's "T(null)" as "T_null_". "" when absent. */
static void udev_attribute(struct udev_device *device, const char *name, char *buffer, size_t length)
{
    const char *value = device ? udev_device_get_sysattr_value(device, name) : NULL;
    snprintf(buffer, length < 512 ? length : 512, "%s", value ? value : "");
    size_t end = strlen(buffer);
    while (end > 0 && strchr(" \t\n\r", buffer[end - 1]))
        buffer[--end] = '\0';
    unsigned char *text = (unsigned char *)buffer;
    for (size_t i = 0; text[i] != '\0';) {
        if (is_kept_as_is(text[i])) {
            i++;
        } else if (text[i] == '\\' && text[i + 1] == 'x') {
            i += 2;
        } else {
            size_t sequence = utf8_sequence_length(text + i);
            if (sequence > 0) {
                i += sequence;
            } else {
                text[i] = strchr("\t\n\v\f\r", text[i]) ? ' ' : '_';
                i++;
            }
        }
    }
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
            char label[512], modalias[512], dmi_modalias[512];
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
    return copy_from_device(subsystem, sysname, syspath_of, NULL, buffer, length);
}

struct orientd_udev_monitor {
    struct udev *udev;
    struct udev_monitor *monitor;
    char subsystems[ORIENTD_UDEV_SUBSYSTEMS][32];
    size_t count;
};

orientd_udev_monitor *orientd_udev_monitor_open(const char *const *subsystems, size_t count, int *error)
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
    int status = result->monitor ? 0 : -ENOMEM;
    for (size_t i = 0; i < count && i < ORIENTD_UDEV_SUBSYSTEMS && status >= 0; i++) {
        snprintf(result->subsystems[i], sizeof result->subsystems[i], "%s", subsystems[i]);
        result->count = i + 1;
        status = udev_monitor_filter_add_match_subsystem_devtype(result->monitor, subsystems[i], NULL);
    }
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
                                 char *sysname, size_t sysname_length, char *subsystem, size_t subsystem_length)
{
    struct udev_device *device = udev_monitor_receive_device(monitor->monitor);
    if (!device)
        return 0;
    const char *device_subsystem = udev_device_get_subsystem(device);
    bool followed = false;
    for (size_t i = 0; device_subsystem && i < monitor->count; i++)
        followed = followed || strcmp(device_subsystem, monitor->subsystems[i]) == 0;
    if (!followed) {
        udev_device_unref(device);
        action[0] = sysname[0] = subsystem[0] = '\0';
        return 1;
    }
    snprintf(subsystem, subsystem_length, "%s", device_subsystem);
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
