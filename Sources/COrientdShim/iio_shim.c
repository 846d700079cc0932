#include "orientd_shim.h"
#include "iio_context.h"

#include <errno.h>
#include <iio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// libiio refused "local:" as a whole: serve the devices from sysfs, and say which one libiio
// choked on. NULL (error set) when sysfs cannot be listed either.
static orientd_iio_context *open_local_from_sysfs(int libiio_error, int *error)
{
    struct orientd_sysfs_devices *devices = orientd_sysfs_list();
    if (!devices) {
        *error = libiio_error;
        return NULL;
    }
    orientd_iio_context *context = calloc(1, sizeof(*context));
    char reason[160];
    iio_strerror(libiio_error, reason, sizeof(reason));
    char *fault = orientd_sysfs_find_fault(devices);
    size_t size = strlen(reason) + (fault ? strlen(fault) : 0) + 64;
    char *refusal = malloc(size);
    if (!context || !refusal) {
        free(context);
        free(refusal);
        free(fault);
        orientd_sysfs_free(devices);
        *error = ENOMEM;
        return NULL;
    }
    snprintf(refusal, size, "%s%s%s", reason, fault ? ": " : "", fault ? fault : "");
    free(fault);
    context->sysfs = devices;
    context->refusal = refusal;
    return context;
}

orientd_iio_context *orientd_iio_open(const char *uri, int *error)
{
    // libiio's "ip:host:port" parser writes into the string it is given: hand it a copy.
    char *copy = strdup(uri);
    if (!copy) {
        *error = ENOMEM;
        return NULL;
    }
    errno = 0;
    struct iio_context *iio = iio_create_context_from_uri(copy);
    int saved = errno;
    free(copy);
    if (!iio) {
        *error = saved ? saved : ENODEV;
        bool local = strncmp(uri, "local:", 6) == 0;
        return local && *error != ENOENT ? open_local_from_sysfs(*error, error) : NULL;
    }
    orientd_iio_context *context = calloc(1, sizeof(*context));
    if (!context) {
        iio_context_destroy(iio);
        *error = ENOMEM;
        return NULL;
    }
    context->iio = iio;
    return context;
}

void orientd_iio_close(orientd_iio_context *context)
{
    if (!context)
        return;
    if (context->iio)
        iio_context_destroy(context->iio);
    orientd_sysfs_free(context->sysfs);
    free(context->refusal);
    free(context);
}

const char *orientd_iio_refusal(const orientd_iio_context *context)
{
    return context->refusal;
}

static const struct orientd_sysfs_device *sysfs_device(const orientd_iio_context *context, unsigned device)
{
    return context->sysfs && device < context->sysfs->count ? &context->sysfs->devices[device] : NULL;
}

struct iio_device *orientd_iio_device_at(const orientd_iio_context *context, unsigned device)
{
    if (!context->iio || device >= iio_context_get_devices_count(context->iio))
        return NULL;
    return iio_context_get_device(context->iio, device);
}

unsigned orientd_iio_device_count(const orientd_iio_context *context)
{
    if (!context->iio)
        return context->sysfs ? context->sysfs->count : 0;
    return iio_context_get_devices_count(context->iio);
}

const char *orientd_iio_device_id(const orientd_iio_context *context, unsigned device)
{
    if (!context->iio)
        return sysfs_device(context, device) ? sysfs_device(context, device)->id : NULL;
    struct iio_device *dev = orientd_iio_device_at(context, device);
    return dev ? iio_device_get_id(dev) : NULL;
}

const char *orientd_iio_device_name(const orientd_iio_context *context, unsigned device)
{
    if (!context->iio)
        return sysfs_device(context, device) ? sysfs_device(context, device)->name : NULL;
    struct iio_device *dev = orientd_iio_device_at(context, device);
    return dev ? iio_device_get_name(dev) : NULL;
}

const char *orientd_iio_device_label(const orientd_iio_context *context, unsigned device)
{
    if (!context->iio)
        return sysfs_device(context, device) ? sysfs_device(context, device)->label : NULL;
    struct iio_device *dev = orientd_iio_device_at(context, device);
    return dev ? iio_device_get_label(dev) : NULL;
}

bool orientd_iio_device_has_input_channel(const orientd_iio_context *context, unsigned device,
                                          const char *channel)
{
    if (!context->iio)
        return sysfs_device(context, device) && orientd_sysfs_has_input_channel(sysfs_device(context, device), channel);
    struct iio_device *dev = orientd_iio_device_at(context, device);
    return dev && iio_device_find_channel(dev, channel, false) != NULL;
}

ssize_t orientd_iio_read_channel_attribute(const orientd_iio_context *context, unsigned device,
                                           const char *channel, const char *attribute,
                                           char *buffer, size_t length)
{
    if (!context->iio)
        return sysfs_device(context, device)
            ? orientd_sysfs_read_channel_attribute(sysfs_device(context, device), channel, attribute, buffer, length)
            : -ENODEV;
    struct iio_device *dev = orientd_iio_device_at(context, device);
    struct iio_channel *chn = dev ? iio_device_find_channel(dev, channel, false) : NULL;
    if (!chn)
        return -ENODEV;
    if (!iio_channel_find_attr(chn, attribute))
        return -ENOENT;
    return iio_channel_attr_read(chn, attribute, buffer, length);
}

// The channel attribute stored in sysfs file `file`, and its channel: libiio files
// "in_accel_mount_matrix" as attribute "mount_matrix" of each accel channel and "in_mount_matrix"
// as attribute "matrix" of a pseudo channel "mount". NULL when no channel has that file.
static const char *channel_attribute_in_file(const struct iio_device *dev, const char *file,
                                             const struct iio_channel **found)
{
    unsigned channels = iio_device_get_channels_count(dev);
    for (unsigned c = 0; c < channels; c++) {
        const struct iio_channel *chn = iio_device_get_channel(dev, c);
        unsigned attributes = iio_channel_get_attrs_count(chn);
        for (unsigned a = 0; a < attributes; a++) {
            const char *name = iio_channel_get_attr(chn, a);
            const char *filename = iio_channel_attr_get_filename(chn, name);
            if (filename && strcmp(filename, file) == 0) {
                *found = chn;
                return name;
            }
        }
    }
    return NULL;
}

ssize_t orientd_iio_read_attribute_file(const orientd_iio_context *context, unsigned device,
                                        const char *file, char *buffer, size_t length)
{
    if (!context->iio)
        return sysfs_device(context, device)
            ? orientd_sysfs_read_file(sysfs_device(context, device), file, buffer, length)
            : -ENODEV;
    struct iio_device *dev = orientd_iio_device_at(context, device);
    if (!dev)
        return -ENODEV;
    if (iio_device_find_attr(dev, file))
        return iio_device_attr_read(dev, file, buffer, length);

    const struct iio_channel *chn;
    const char *name = channel_attribute_in_file(dev, file, &chn);
    return name ? iio_channel_attr_read(chn, name, buffer, length) : -ENOENT;
}

bool orientd_iio_has_attribute_file(const orientd_iio_context *context, unsigned device, const char *file)
{
    struct iio_device *dev = orientd_iio_device_at(context, device);
    const struct iio_channel *chn;
    return dev && (iio_device_find_attr(dev, file) || channel_attribute_in_file(dev, file, &chn));
}

int orientd_iio_write_attribute_file(const orientd_iio_context *context, unsigned device,
                                     const char *file, const char *value)
{
    if (!context->iio)
        return sysfs_device(context, device)
            ? orientd_sysfs_write_file(sysfs_device(context, device), file, value)
            : -ENODEV;
    struct iio_device *dev = orientd_iio_device_at(context, device);
    if (!dev)
        return -ENODEV;
    // The text alone, as `echo -n` writes it: libiio's attribute writes send its NUL too, which a
    // driver's parser stops at but a file (an emulated device, iio-sensor-proxy's suite reading
    // sampling_frequency back) keeps.
    ssize_t written;
    if (iio_device_find_attr(dev, file)) {
        written = iio_device_attr_write_raw(dev, file, value, strlen(value));
    } else {
        const struct iio_channel *chn;
        const char *name = channel_attribute_in_file(dev, file, &chn);
        if (!name)
            return -ENOENT;
        written = iio_channel_attr_write_raw(chn, name, value, strlen(value));
    }
    return written < 0 ? (int)written : 0;
}

void orientd_iio_strerror(int error, char *buffer, size_t length)
{
    iio_strerror(error, buffer, length);
}
