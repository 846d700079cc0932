// Private to the shim: the machine's IIO devices read from sysfs by orientd itself, for when
// libiio refuses the local context as a whole (see sysfs_shim.c).
#ifndef ORIENTD_IIO_SYSFS_H
#define ORIENTD_IIO_SYSFS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct orientd_sysfs_device {
    char *id;    // "iio:device0"
    char *name;  // NULL when the device has none
    char *label; // NULL when the device has none
};

struct orientd_sysfs_devices {
    struct orientd_sysfs_device *devices;
    unsigned count;
};

/// Lists /sys/bus/iio/devices; NULL (with errno set) when the directory cannot be read.
struct orientd_sysfs_devices *orientd_sysfs_list(void);
void orientd_sysfs_free(struct orientd_sysfs_devices *devices);

bool orientd_sysfs_has_input_channel(const struct orientd_sysfs_device *device, const char *channel);
ssize_t orientd_sysfs_read_channel_attribute(const struct orientd_sysfs_device *device, const char *channel,
                                             const char *attribute, char *buffer, size_t length);
ssize_t orientd_sysfs_read_file(const struct orientd_sysfs_device *device, const char *file,
                                char *buffer, size_t length);
int orientd_sysfs_write_file(const struct orientd_sysfs_device *device, const char *file, const char *value);

/// Names the first device whose scan elements libiio cannot parse, and the attribute at fault, in
/// a sentence (malloc'd); NULL when none is found.
char *orientd_sysfs_find_fault(const struct orientd_sysfs_devices *devices);

#endif
